/// A tag-level failure of a tag operation, whatever the family: record it against the tag and move on.
///
/// Kept apart from `TransportError` (silence, NAK, lost tag, reader fault), which means "retry or ask
/// for the tag again" (`docs/style.md` §3.4). Equality and hashing use the code only, so tests and callers
/// switch on `code`.
public struct TagError: Error, Hashable, CustomStringConvertible {
    /// A stable, switchable failure code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The tag holds no usable NDEF data (no `E1` CC, no NDEF TLV, Terminator before NDEF, bad length).
        public static let notNDEF = Code("notNDEF")
        /// The CC names a mapping version or read access this reader does not support.
        public static let unsupportedCC = Code("unsupportedCC")
        /// The tag is read-only (CC3 write nibble not `0`, or lock bits set over the NDEF area).
        public static let readOnly = Code("readOnly")
        /// The message does not fit the NDEF area.
        public static let capacity = Code("capacity")
        /// A page read back after writing differs from what was written (`page` names it).
        public static let verifyMismatch = Code("verifyMismatch")
        /// Lock bits or the CC did not read back as set after `writeLock` (`page` names it).
        public static let lockFailed = Code("lockFailed")
        /// An answer had the wrong length or value for the command sent.
        public static let invalidResponse = Code("invalidResponse")
        /// The caller passed an invalid argument (e.g. WRITE data that is not 4 bytes); nothing was sent.
        public static let invalidArgument = Code("invalidArgument")
        /// The reader path cannot send the command (no raw-command path), or the chip lacks it.
        public static let unsupportedCommand = Code("unsupportedCommand")
        /// PWD_AUTH failed: NAK, silence, or a PACK different from the expected one.
        public static let authenticationFailed = Code("authenticationFailed")
        /// The chip is unknown and the operation needs its memory map (e.g. the dynamic lock page).
        public static let unknownChip = Code("unknownChip")
        /// The chip is not one the job accepts (the pipeline's identify step).
        public static let wrongChip = Code("wrongChip")
        /// The tag's memory disagrees with its anticollision identity (a clone or a misread).
        public static let identityMismatch = Code("identityMismatch")
        /// Password or key protection could not be set, or did not check out.
        public static let protectFailed = Code("protectFailed")
        /// The family or chip has no permanent lock this tool can make and confirm.
        public static let lockUnsupported = Code("lockUnsupported")
        /// The CC declares more data area than the user memory of the chip GET_VERSION names: a CC the
        /// chip cannot have (CC bits are OTP and can be raised by anyone), refused as a tamper sign.
        public static let tamperedCC = Code("tamperedCC")

        /// The code's name, e.g. `verifyMismatch`.
        public var description: String { name }
    }

    /// What failed.
    public let code: Code
    /// What happened and what to do, for people.
    public let message: String
    /// The page concerned, when there is one.
    public let page: Int?
    /// The failure underneath, typically a `TransportError`.
    public let cause: (any Error)?
    /// Where the error was raised (`file:line`).
    public let location: String

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, page: Int? = nil, cause: (any Error)? = nil,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.page = page
        self.cause = cause
        self.location = "\(fileID):\(line)"
    }

    /// Errors compare by code only.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    /// `code: message (location)`.
    public var description: String { "\(code): \(message) (\(location))" }
}

/// The Type 2 operations' name for `TagError` (one error type for every family).
public typealias Type2Error = TagError
