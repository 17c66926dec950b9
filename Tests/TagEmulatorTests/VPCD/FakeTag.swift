import NDEF
import NFCTags
import TagEmulator
import Testing

/// A small NTAG213-shaped test double for the vpcd front end (not the chip model: just enough
/// memory and commands to see what the front end sends and answers).
final class FakeTag: TagEndpoint {
    let uid: [UInt8]
    var pages: [[UInt8]]
    private(set) var active = false
    private(set) var authenticated = false
    private(set) var fieldOffCount = 0
    private(set) var commands: [[UInt8]] = []
    var silentToPasswordAuth = false

    init(uid: [UInt8]) {
        self.uid = uid
        pages = Array(repeating: [0, 0, 0, 0], count: 45)
        pages[0] = [uid[0], uid[1], uid[2], 0x88 ^ uid[0] ^ uid[1] ^ uid[2]]
        pages[1] = [uid[3], uid[4], uid[5], uid[6]]
        pages[2] = [uid[3] ^ uid[4] ^ uid[5] ^ uid[6], 0x48, 0x00, 0x00]
        pages[3] = [0xE1, 0x10, 0x12, 0x00]
        pages[4] = [0x01, 0x03, 0xA0, 0x0C]
        pages[5] = [0x34, 0x03, 0x00, 0xFE]
    }

    func activate() -> DetectedTag? {
        active = true
        return DetectedTag(uid: uid)
    }

    func receiveRaw(_ frame: [UInt8], lastByteBits: Int) -> TagAnswer { .silence }

    func exchange(_ command: [UInt8]) -> TagAnswer {
        guard active, let code = command.first else { return .silence }
        commands.append(command)
        switch code {
        case 0x30 where command.count == 2:
            let start = Int(command[1])
            guard start < pages.count else { return nak() }
            return .data((0..<4).flatMap { pages[(start + $0) % pages.count] })
        case 0xA2 where command.count == 6:
            let page = Int(command[1])
            guard page >= 2, page < pages.count else { return nak() }
            pages[page] = Array(command[2...])
            return .ack
        case 0x60 where command.count == 1:
            return .data(ChipModel.ntag213.version)
        case 0x3A where command.count == 3:
            let start = Int(command[1])
            let end = Int(command[2])
            guard start <= end, end < pages.count else { return nak() }
            return .data((start...end).flatMap { pages[$0] })
        case 0x1B where command.count == 5:
            if silentToPasswordAuth { return .silence }
            guard Array(command[1...]) == [0xFF, 0xFF, 0xFF, 0xFF] else { return nak() }
            authenticated = true
            return .data([0x00, 0x00])
        case 0x3C where command.count == 2:
            return .data(Array(repeating: 0x5A, count: 32))
        default:
            return nak()
        }
    }

    private func nak() -> TagAnswer {
        active = false
        authenticated = false
        return .nak(0)
    }

    func halt() { active = false }

    func fieldOff() {
        active = false
        authenticated = false
        fieldOffCount += 1
    }

    var airtimeMicroseconds: Double { 0 }
}

/// A population of fake tags in a fixed order.
final class FakeTagSource: VPCDTagSource {
    private(set) var tags: [FakeTag]
    private var index: Int?

    init(uids: [[UInt8]], startWithFirst: Bool = true) {
        tags = uids.map { FakeTag(uid: $0) }
        index = startWithFirst && !tags.isEmpty ? 0 : nil
    }

    var current: (any TagEndpoint)? { index.map { tags[$0] } }

    func advance() -> (any TagEndpoint)? {
        guard let index, index + 1 < tags.count else {
            self.index = nil
            return nil
        }
        self.index = index + 1
        return tags[index + 1]
    }

    func insert(uid: [UInt8]?) throws -> any TagEndpoint {
        if let uid {
            if let known = tags.firstIndex(where: { $0.uid == uid }) {
                index = known
            } else {
                tags.append(FakeTag(uid: uid))
                index = tags.count - 1
            }
        } else {
            let next = (index ?? -1) + 1
            guard next < tags.count else { throw VPCDControlError("no more tags") }
            index = next
        }
        return tags[index ?? 0]
    }

    func remove() { index = nil }

    func dump() -> String {
        guard let index else { return "" }
        return tags[index].pages.enumerated().map { "\(String(format2: $0.offset)): \(Hex.string($0.element))" }
            .joined(separator: "\n")
    }
}

extension String {
    fileprivate init(format2 value: Int) {
        let text = String(value, radix: 16, uppercase: true)
        self = text.count < 2 ? "0" + text : text
    }
}

/// A powered card of `style` with `tag` in its field (activated by the power-on, as a reader does).
func poweredCard(_ tag: any TagEndpoint, style: VPCDReaderStyle) -> VPCDCard {
    let card = VPCDCard(style: style)
    card.insert(tag)
    #expect(card.handle(.powerOn) == nil)
    return card
}
