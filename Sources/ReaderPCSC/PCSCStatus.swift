internal import CPCSC

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

    /// pcsc-lite's text for the code. The corresponding C function is `pcsc_stringify_error`.
    public var description: String { String(cString: pcsc_stringify_error(rawValue)) }
}
