import NDEF
import NFCTags

/// A population of `StandInType2Tag`s in front of a PN532: one tag in the field at a time, the next
/// arriving when the current one leaves (line mode) or is inserted by the operator.
///
/// Spec options read (`sim:ntag215?…`): `count` (tags in the population, default 1), `uid` (hex,
/// 7 bytes, first tag; later tags count up in the last three bytes), `line` (line mode).
/// Not `Sendable`: driven from the emulator's I/O thread.
public final class StandInTagField: PN532TagField {
    /// Tags still waiting to arrive.
    public private(set) var waiting: [StandInType2Tag]
    /// Tags that have left the field, in order.
    public private(set) var departed: [StandInType2Tag] = []
    /// Whether a released tag leaves and the next arrives.
    public var lineMode: Bool
    private var present: StandInType2Tag?
    private var nextSerial: UInt32

    /// Creates a population of `count` tags numbered from `firstUID`; the first one is in the field.
    public init(count: Int = 1, firstUID: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6], lineMode: Bool = false) {
        let base = UInt32(firstUID[4]) << 16 | UInt32(firstUID[5]) << 8 | UInt32(firstUID[6])
        nextSerial = base &+ UInt32(max(count, 0))
        waiting = (0..<max(count, 0)).map { StandInType2Tag(uid: Self.uid(prefix: firstUID, serial: base &+ UInt32($0))) }
        self.lineMode = lineMode
        present = waiting.isEmpty ? nil : waiting.removeFirst()
    }

    /// Creates the population a `--tags` spec describes.
    public convenience init(spec: ReaderSpec) throws(PN532ControlError) {
        var count = 1
        if let text = spec.option("count") {
            guard let value = Int(text), value >= 0 else { throw PN532ControlError("count must be a whole number, got '\(text)'") }
            count = value
        }
        var uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
        if let text = spec.option("uid") { uid = try Self.parseUID(text) }
        self.init(count: count, firstUID: uid, lineMode: spec.option("line").map { $0 != "false" } ?? false)
    }

    /// The tag in the field (a torn tag has left it).
    public var current: (any TagEndpoint)? { currentTag }

    /// The concrete tag in the field, for tests that inject faults or read memory.
    public var currentTag: StandInType2Tag? {
        if let tag = present, tag.departed { leave() }
        return present
    }

    public func hostReleased() {
        guard lineMode, present != nil else { return }
        leave()
        arrive()
    }

    public func insert(uid: [UInt8]?) throws(PN532ControlError) -> [UInt8] {
        if let tag = present { departed.append(tag) }
        if let uid {
            guard uid.count == 7 else { throw PN532ControlError("a UID has 7 bytes, got \(uid.count)") }
            present = StandInType2Tag(uid: uid)
        } else if !waiting.isEmpty {
            present = waiting.removeFirst()
        } else {
            present = StandInType2Tag(uid: Self.uid(prefix: present?.uid ?? departed.last?.uid ?? [0x04, 0, 0, 0, 0, 0, 0], serial: nextSerial))
            nextSerial &+= 1
        }
        return present?.uid ?? []
    }

    public func remove() { leave() }

    public func image() -> [UInt8]? { currentTag?.memory }

    /// The next waiting tag enters the field (line mode, after the previous one left).
    public func arrive() {
        guard present == nil, !waiting.isEmpty else { return }
        present = waiting.removeFirst()
    }

    private func leave() {
        if let tag = present { departed.append(tag) }
        present = nil
    }

    /// Parses a 7-byte hex UID (`04A1B2C3D4E5F6` or `04:A1:…`).
    public static func parseUID(_ text: String) throws(PN532ControlError) -> [UInt8] {
        let digits = text.filter(\.isHexDigit)
        guard digits.count == 14, digits.count + text.filter({ $0 == ":" || $0 == " " }).count == text.count else {
            throw PN532ControlError("a UID is 7 hex bytes, got '\(text)'")
        }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else { throw PN532ControlError("bad hex in UID '\(text)'") }
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    private static func uid(prefix: [UInt8], serial: UInt32) -> [UInt8] {
        Array(prefix.prefix(4)) + [UInt8(serial >> 16 & 0xFF), UInt8(serial >> 8 & 0xFF), UInt8(serial & 0xFF)]
    }
}
