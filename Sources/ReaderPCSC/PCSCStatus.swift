internal import CPCSC
import NFCTags

/// A pcsc-lite status code (`LONG`, an `Int` on Linux x86_64).
public struct PCSCStatus: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    /// Wraps a raw `LONG` status.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The corresponding C constant is `SCARD_S_SUCCESS`.
    public static let success = PCSCStatus(rawValue: Int(SCARD_S_SUCCESS))
    /// The corresponding C constant is `SCARD_E_NO_SERVICE`.
    public static let noService = PCSCStatus(rawValue: Int(SCARD_E_NO_SERVICE))
    /// The corresponding C constant is `SCARD_E_TIMEOUT`.
    public static let timeout = PCSCStatus(rawValue: Int(SCARD_E_TIMEOUT))
    /// The corresponding C constant is `SCARD_E_CANCELLED`.
    public static let cancelled = PCSCStatus(rawValue: Int(SCARD_E_CANCELLED))
    /// The corresponding C constant is `SCARD_E_NO_READERS_AVAILABLE`.
    public static let noReadersAvailable = PCSCStatus(rawValue: Int(SCARD_E_NO_READERS_AVAILABLE))
    /// The corresponding C constant is `SCARD_E_NOT_TRANSACTED`.
    public static let notTransacted = PCSCStatus(rawValue: Int(SCARD_E_NOT_TRANSACTED))
    /// The corresponding C constant is `SCARD_W_REMOVED_CARD`.
    public static let removedCard = PCSCStatus(rawValue: Int(SCARD_W_REMOVED_CARD))
    /// The corresponding C constant is `SCARD_E_NO_SMARTCARD`.
    public static let noSmartcard = PCSCStatus(rawValue: Int(SCARD_E_NO_SMARTCARD))
    /// The corresponding C constant is `SCARD_E_SHARING_VIOLATION`.
    public static let sharingViolation = PCSCStatus(rawValue: Int(SCARD_E_SHARING_VIOLATION))
    /// The corresponding C constant is `SCARD_E_READER_UNAVAILABLE`.
    public static let readerUnavailable = PCSCStatus(rawValue: Int(SCARD_E_READER_UNAVAILABLE))
    /// The corresponding C constant is `SCARD_E_UNKNOWN_READER`.
    public static let unknownReader = PCSCStatus(rawValue: Int(SCARD_E_UNKNOWN_READER))
    /// The corresponding C constant is `SCARD_E_SERVICE_STOPPED`.
    public static let serviceStopped = PCSCStatus(rawValue: Int(SCARD_E_SERVICE_STOPPED))
    /// The corresponding C constant is `SCARD_W_RESET_CARD`.
    public static let resetCard = PCSCStatus(rawValue: Int(SCARD_W_RESET_CARD))
    /// The corresponding C constant is `SCARD_W_UNPOWERED_CARD`.
    public static let unpoweredCard = PCSCStatus(rawValue: Int(SCARD_W_UNPOWERED_CARD))
    /// The corresponding C constant is `SCARD_W_UNRESPONSIVE_CARD`.
    public static let unresponsiveCard = PCSCStatus(rawValue: Int(SCARD_W_UNRESPONSIVE_CARD))
    /// The corresponding C constant is `SCARD_E_UNSUPPORTED_FEATURE`.
    public static let unsupportedFeature = PCSCStatus(rawValue: Int(SCARD_E_UNSUPPORTED_FEATURE))
    /// The corresponding C constant is `SCARD_E_INVALID_HANDLE`.
    public static let invalidHandle = PCSCStatus(rawValue: Int(SCARD_E_INVALID_HANDLE))
    /// The corresponding C constant is `SCARD_F_COMM_ERROR`.
    public static let commError = PCSCStatus(rawValue: Int(SCARD_F_COMM_ERROR))

    /// pcsc-lite's text for the code with its hex value.
    ///
    /// The corresponding C function is `pcsc_stringify_error`.
    public var description: String {
        String(cString: pcsc_stringify_error(rawValue)) + " ("
            + String(UInt32(truncatingIfNeeded: rawValue), radix: 16, uppercase: true) + "h)"
    }

    /// Whether the code means the card (tag) left or was swapped (`docs/reference/pcsc.md` §4): the tag's job
    /// restarts after a reconnect.
    public var meansTagLeft: Bool {
        self == .notTransacted || self == .removedCard || self == .noSmartcard || self == .resetCard
            || self == .unpoweredCard || self == .unresponsiveCard
    }

    /// Whether the code means the reader itself went away: unplugged (`SCARD_E_READER_UNAVAILABLE`,
    /// `SCARD_E_UNKNOWN_READER`), or pcscd stopped or restarted under us (no service, a broken socket, a context
    /// or card handle the new daemon does not know). The reader is opened again by name (`PCSCReader.reopen`).
    public var meansReaderGone: Bool {
        self == .noService || self == .serviceStopped || self == .commError || self == .readerUnavailable
            || self == .unknownReader || self == .noReadersAvailable || self == .invalidHandle
    }

    /// The transport error this code stands for: `.tagLost` for removal codes, `.readerGone` when the reader or
    /// pcscd went away, else `.transport`.
    public var transportError: TransportError {
        if meansTagLeft { return .tagLost }
        return meansReaderGone ? .readerGone(description) : .transport(description)
    }
}
