import NDEF

/// The form of a chip's identifier (length, fixed first byte), so a UID a person types is checked against the
/// chip it is meant for, and an error can say what that chip takes.
///
/// Each family states its chips' form (`ChipModel.uidForm`, `Type3Family.idmForm`, `Type5Family.uidForm`,
/// `Type4ChipModel.uidForm`); callers ask the chip instead of knowing the family.
public struct UIDForm: Sendable, Hashable, CustomStringConvertible {
    /// What the identifier is called (`UID`, or `IDm` for FeliCa).
    public var name: String
    /// Its length in bytes.
    public var byteCount: Int
    /// The byte it always starts with (ISO/IEC 15693's `E0`), if any.
    public var firstByte: UInt8?

    /// Creates a form.
    public init(name: String = "UID", byteCount: Int, firstByte: UInt8? = nil) {
        self.name = name
        self.byteCount = byteCount
        self.firstByte = firstByte
    }

    /// A 7-byte (double-size) ISO/IEC 14443-3 type A UID, as NTAG21x, MIFARE Ultralight EV1 and NTAG 424 DNA ship.
    public static let sevenByteUID = UIDForm(byteCount: 7)

    /// `14 hex digits (7 bytes)`, or `16 hex digits (8 bytes, starting E0)` when the first byte is fixed.
    public var description: String {
        "\(2 * byteCount) hex digits (\(byteCount) bytes" + (firstByte.map { ", starting \(Hex.byte($0))" } ?? "") + ")"
    }

    /// The identifier `text` spells (hex digits only, no separators), or `nil` when it is not of this form.
    public func bytes(_ text: some StringProtocol) -> [UInt8]? {
        guard text.count == 2 * byteCount, let bytes = Hex.bytes(text), bytes.count == byteCount else { return nil }
        if let firstByte, bytes[0] != firstByte { return nil }
        return bytes
    }

    /// Whether `bytes` is of this form.
    public func accepts(_ bytes: [UInt8]) -> Bool {
        bytes.count == byteCount && (firstByte.map { bytes.first == $0 } ?? true)
    }
}
