/// An NTAG 424 DNA native command refused or answered wrongly (`docs/reference/type4.md` §2.2): every `91 xx` is a
/// case, and a response MAC that does not verify is never accepted.
public struct NTAG424Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// `91 1C` ILLEGAL_COMMAND_CODE.
        case illegalCommand
        /// `91 1E` INTEGRITY_ERROR: wrong MAC, padding or CRC (the tag dropped the session).
        case integrity
        /// `91 40` NO_SUCH_KEY.
        case noSuchKey
        /// `91 7E` LENGTH_ERROR.
        case length
        /// `91 9D` PERMISSION_DENIED.
        case permissionDenied
        /// `91 9E` PARAMETER_ERROR.
        case parameter
        /// `91 AD` AUTHENTICATION_DELAY: too many failures, the chip slows down.
        case authenticationDelay
        /// `91 AE` AUTHENTICATION_ERROR: wrong key, or the command needs another authentication.
        case authentication
        /// `91 BE` BOUNDARY_ERROR.
        case boundary
        /// `91 CA` COMMAND_ABORTED.
        case aborted
        /// `91 EE` MEMORY_ERROR.
        case memory
        /// `91 F0` FILE_NOT_FOUND.
        case fileNotFound
        /// Any other status word.
        case unexpectedStatus
        /// The response's MAC did not verify: the answer is not trusted.
        case responseMAC
        /// The response was too short for its MAC or its data, or its padding was malformed.
        case malformedResponse
        /// The command needs a session that is not open.
        case notAuthenticated
    }

    /// What went wrong.
    public var kind: Kind
    /// The status word, when the tag answered one.
    public var status: UInt16?
    /// The command's INS.
    public var instruction: UInt8

    /// Classifies `status` of the command `instruction`.
    public init(status: UInt16, instruction: UInt8) {
        self.status = status
        self.instruction = instruction
        kind =
            switch status {
            case 0x911C: .illegalCommand
            case 0x911E: .integrity
            case 0x9140: .noSuchKey
            case 0x917E: .length
            case 0x919D: .permissionDenied
            case 0x919E: .parameter
            case 0x91AD: .authenticationDelay
            case 0x91AE: .authentication
            case 0x91BE: .boundary
            case 0x91CA: .aborted
            case 0x91EE: .memory
            case 0x91F0: .fileNotFound
            default: .unexpectedStatus
            }
    }

    /// An error without a status word (a bad response MAC, a malformed answer, no session).
    public init(_ kind: Kind, instruction: UInt8) {
        self.kind = kind
        self.status = nil
        self.instruction = instruction
    }

    public var description: String {
        let command = "INS " + String(instruction, radix: 16, uppercase: true)
        guard let status else { return "\(kind.rawValue) (\(command))" }
        let word = String(status, radix: 16, uppercase: true)
        return "\(kind.rawValue): status \(word) (\(command))"
    }
}
