import NFCTags

/// A small NTAG215-shaped tag used behind the PN532 front end until the full chip model is wired
/// in: 135 pages, READ, FAST_READ, WRITE, COMPATIBILITY_WRITE, GET_VERSION, READ_SIG, READ_CNT,
/// PWD_AUTH, HLTA and the ISO/IEC 14443-3 activation (`type2-ntag.md` §1–§3).
///
/// It does not model lock bits, AUTH0/PROT or the mirror. Faults: a NAK code per written page, a
/// mute tag, and a tear (the tag stores the page, then leaves the field without answering).
/// Not `Sendable`: owned by one front end.
public final class StandInType2Tag: TagEndpoint {
    /// Pages of an NTAG215 (0–134).
    public static let pageCount = 135
    private enum State { case idle, ready1, ready2, active, halt }

    public let uid: [UInt8]
    /// The memory, 4 bytes per page.
    public private(set) var memory: [UInt8]
    /// Page → NAK code answered to WRITE/COMPATIBILITY_WRITE of that page.
    public var nakOnWrite: [UInt8: UInt8] = [:]
    /// Page whose WRITE tears: the data is stored, then the tag leaves the field without answering.
    public var tearOnWrite: UInt8?
    /// The tag never answers.
    public var mute = false
    /// The next this many commands in ACTIVE state get no answer (then the tag answers again).
    public var silenceNext = 0
    /// Whether the tag has left the field (after a tear).
    public private(set) var departed = false
    public private(set) var airtimeMicroseconds = 0.0

    private var state = State.idle
    private var compatibilityWritePage: UInt8?
    private let timing = RFTiming()

    /// A factory-fresh NTAG215 image for `uid` (7 bytes; `type2-ntag.md` §2.8).
    public init(uid: [UInt8]) {
        self.uid = uid
        var memory = [UInt8](repeating: 0, count: Self.pageCount * 4)
        let bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
        let bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        memory.replaceSubrange(0..<12, with: [uid[0], uid[1], uid[2], bcc0, uid[3], uid[4], uid[5], uid[6], bcc1, 0x48, 0, 0])
        memory.replaceSubrange(12..<20, with: [0xE1, 0x10, 0x3E, 0x00, 0x03, 0x00, 0xFE, 0x00])
        memory.replaceSubrange(130 * 4..<135 * 4, with: [0, 0, 0, 0xBD, 0x04, 0, 0, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0])
        self.memory = memory
    }

    public func activate() -> DetectedTag? {
        guard !mute, !departed else { return nil }
        airtimeMicroseconds += timing.activation
        state = .active
        compatibilityWritePage = nil
        return DetectedTag(uid: uid)
    }

    public func halt() {
        state = .halt
    }

    public func fieldOff() {
        state = .idle
        compatibilityWritePage = nil
    }

    public func receiveRaw(_ frame: [UInt8], lastByteBits: Int) -> TagAnswer {
        guard !mute, !departed else { return .silence }
        if lastByteBits == 7, frame.count == 1 {
            let wakes = frame[0] == 0x52 ? state != .active : state == .idle
            guard frame[0] == 0x26 || frame[0] == 0x52, wakes else { return .silence }
            state = .ready1
            return .data([0x44, 0x00])
        }
        let bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
        let bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        switch (state, frame.first, frame.count > 1 ? frame[1] : nil) {
        case (.ready1, 0x93, 0x20): return .data([0x88, uid[0], uid[1], uid[2], bcc0])
        case (.ready1, 0x93, 0x70) where CRCA.isValid(frame):
            state = .ready2
            return .data([0x04])
        case (.ready2, 0x95, 0x20): return .data([uid[3], uid[4], uid[5], uid[6], bcc1])
        case (.ready2, 0x95, 0x70) where CRCA.isValid(frame):
            state = .active
            return .data([0x00])
        case (.active, _, _):
            guard CRCA.isValid(frame) else { return .nak(1) }
            return exchange(Array(frame.dropLast(2)))
        default:
            state = state == .halt ? .halt : .idle
            return .silence
        }
    }

    public func exchange(_ command: [UInt8]) -> TagAnswer {
        guard !mute, !departed, state == .active else { return .silence }
        if silenceNext > 0 {
            silenceNext -= 1
            state = .idle
            return .silence
        }
        let answer = respond(to: command)
        switch answer {
        case .data(let bytes): airtimeMicroseconds += timing.exchange(command: command.count, answer: bytes.count)
        case .ack: airtimeMicroseconds += timing.acknowledged(command: command.count, programming: timing.programmingMicroseconds)
        case .nak: airtimeMicroseconds += timing.acknowledged(command: command.count, programming: 0)
        case .silence: airtimeMicroseconds += timing.unanswered(command: command.count)
        }
        if case .nak = answer { state = .idle }
        return answer
    }

    private func respond(to command: [UInt8]) -> TagAnswer {
        if let page = compatibilityWritePage {
            compatibilityWritePage = nil
            guard command.count == 16 else { return .nak(0) }
            return write(page: page, Array(command.prefix(4)))
        }
        let last = UInt8(Self.pageCount - 1)
        switch (command.first, command.count) {
        case (0x30, 2):
            guard command[1] <= last else { return .nak(0) }
            return .data((0..<4).flatMap { page(Int(command[1]) + $0) })
        case (0x3A, 3):
            guard command[1] <= command[2], command[2] <= last else { return .nak(0) }
            return .data((Int(command[1])...Int(command[2])).flatMap { page($0) })
        case (0xA2, 6):
            return write(page: command[1], Array(command[2...]))
        case (0xA0, 2):
            guard command[1] >= 2, command[1] <= last else { return .nak(0) }
            compatibilityWritePage = command[1]
            return .ack
        case (0x60, 1): return .data([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03])
        case (0x3C, 2): return .data([UInt8](repeating: 0x00, count: 32))
        case (0x39, 2): return command[1] == 0x02 ? .data([0x00, 0x00, 0x00]) : .nak(0)
        case (0x1B, 5):
            return Array(command[1...]) == Array(memory[133 * 4..<134 * 4]) ? .data(Array(memory[134 * 4..<134 * 4 + 2])) : .nak(0)
        case (0x50, 2):
            state = .halt
            return .silence
        default:
            return .nak(0)
        }
    }

    /// Page `index` modulo the page count, PWD and PACK reading as zeros.
    private func page(_ index: Int) -> [UInt8] {
        let wrapped = index % Self.pageCount
        if wrapped >= 133 { return [0, 0, 0, 0] }
        return Array(memory[wrapped * 4..<wrapped * 4 + 4])
    }

    private func write(page: UInt8, _ data: [UInt8]) -> TagAnswer {
        guard page >= 2, Int(page) < Self.pageCount else { return .nak(0) }
        if let code = nakOnWrite[page] { return .nak(code) }
        let offset = Int(page) * 4
        if page == 2 {
            memory[offset + 2] |= data[2]
            memory[offset + 3] |= data[3]
        } else if page == 3 {
            for index in 0..<4 { memory[offset + index] |= data[index] }
        } else {
            memory.replaceSubrange(offset..<offset + 4, with: data)
        }
        if tearOnWrite == page {
            departed = true
            return .silence
        }
        return .ack
    }

    /// Replaces the whole memory image (tests, `store=` preloads); must be 540 bytes.
    public func load(_ image: [UInt8]) {
        guard image.count == memory.count else { return }
        memory = image
    }
}
