/// An ISO/IEC 15693 error response `01 EC`, the error code typed (`docs/reference/type5.md` §1.4).
///
/// A tag-level refusal: the family turns it into a `TagError` (a locked block is `readOnly`, an absent
/// block `capacity`), never a `TransportError`.
public struct ISO15693Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error code byte after the `01` response flags.
    public let code: UInt8
    /// The command that was refused.
    public let command: UInt8

    /// Creates an error for `code` answered to `command`.
    public init(code: UInt8, command: UInt8) {
        self.code = code
        self.command = command
    }

    /// `01`: command not supported.
    public static let commandNotSupported: UInt8 = 0x01
    /// `02`: command not recognised (format error).
    public static let commandNotRecognised: UInt8 = 0x02
    /// `03`: option not supported.
    public static let optionNotSupported: UInt8 = 0x03
    /// `0F`: unknown (generic) error.
    public static let unknownError: UInt8 = 0x0F
    /// `10`: the block does not exist.
    public static let blockNotAvailable: UInt8 = 0x10
    /// `11`: the block is already locked and cannot be locked again.
    public static let blockAlreadyLocked: UInt8 = 0x11
    /// `12`: the block is locked; its content cannot be changed.
    public static let blockLocked: UInt8 = 0x12
    /// `13`: the block was not successfully programmed.
    public static let blockNotProgrammed: UInt8 = 0x13
    /// `14`: the block was not successfully locked.
    public static let blockNotLocked: UInt8 = 0x14

    /// The meaning, in words (§1.4).
    public var meaning: String {
        switch code {
        case Self.commandNotSupported: "command not supported"
        case Self.commandNotRecognised: "command not recognised"
        case Self.optionNotSupported: "option not supported"
        case Self.unknownError: "unknown error"
        case Self.blockNotAvailable: "block not available"
        case Self.blockAlreadyLocked: "block already locked"
        case Self.blockLocked: "block locked"
        case Self.blockNotProgrammed: "block not successfully programmed"
        case Self.blockNotLocked: "block not successfully locked"
        default: "error"
        }
    }

    /// Whether the code says the block is out of range (`10`, and `0F` as Proxmark reads it, §1.4).
    public var isOutOfRange: Bool { code == Self.blockNotAvailable || code == Self.unknownError }

    /// `command 21h refused 12h (block locked)`.
    public var description: String {
        "command \(Self.hex(command))h refused \(Self.hex(code))h (\(meaning))"
    }

    private static func hex(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16, uppercase: true)
        return text.count == 1 ? "0" + text : text
    }
}
