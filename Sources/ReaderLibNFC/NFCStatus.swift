internal import CNFC

/// A libnfc status code (`int`, negative on failure; `docs/reference/pn532-libnfc.md` §4.8).
public struct NFCStatus: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The C status value.
    public let rawValue: Int32
    /// The device's error text when the status was raised (`nfc_strerror`), if captured.
    public let detail: String?

    /// Wraps a raw status.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
        detail = nil
    }

    /// Wraps a raw status with the text libnfc gave for it.
    public init(rawValue: Int32, detail: String?) {
        self.rawValue = rawValue
        self.detail = detail
    }

    /// Statuses compare by code only (the captured text is informative).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// The corresponding C constant is `NFC_SUCCESS`.
    public static let success = NFCStatus(rawValue: NFC_SUCCESS)
    /// The corresponding C constant is `NFC_EIO` (input/output error, e.g. an error frame).
    public static let io = NFCStatus(rawValue: NFC_EIO)
    /// The corresponding C constant is `NFC_EINVARG` (invalid argument, PN532 status 10/27…).
    public static let invalidArgument = NFCStatus(rawValue: NFC_EINVARG)
    /// The corresponding C constant is `NFC_EDEVNOTSUPP`.
    public static let deviceNotSupported = NFCStatus(rawValue: NFC_EDEVNOTSUPP)
    /// The corresponding C constant is `NFC_ENOTSUCHDEV`.
    public static let noSuchDevice = NFCStatus(rawValue: NFC_ENOTSUCHDEV)
    /// The corresponding C constant is `NFC_EOVFLOW` (buffer overflow).
    public static let overflow = NFCStatus(rawValue: NFC_EOVFLOW)
    /// The corresponding C constant is `NFC_ETIMEOUT` (the reader did not answer in time).
    public static let timeout = NFCStatus(rawValue: NFC_ETIMEOUT)
    /// The corresponding C constant is `NFC_EOPABORTED` (`nfc_abort_command`).
    public static let aborted = NFCStatus(rawValue: NFC_EOPABORTED)
    /// The corresponding C constant is `NFC_ENOTIMPL`.
    public static let notImplemented = NFCStatus(rawValue: NFC_ENOTIMPL)
    /// The corresponding C constant is `NFC_ETGRELEASED` (target released).
    public static let targetReleased = NFCStatus(rawValue: NFC_ETGRELEASED)
    /// The corresponding C constant is `NFC_ERFTRANS` (RF transmission error: silence, CRC, parity).
    public static let rfTransmissionError = NFCStatus(rawValue: NFC_ERFTRANS)
    /// The corresponding C constant is `NFC_EMFCAUTHFAIL` (PN532 status 14; a Type 2 NAK through
    /// InDataExchange).
    public static let mifareAuthenticationFailed = NFCStatus(rawValue: NFC_EMFCAUTHFAIL)
    /// The corresponding C constant is `NFC_ESOFT` (software error).
    public static let software = NFCStatus(rawValue: NFC_ESOFT)
    /// The corresponding C constant is `NFC_ECHIP` (chip error).
    public static let chip = NFCStatus(rawValue: NFC_ECHIP)

    public var description: String {
        let name: String
        switch self {
        case .success: name = "NFC_SUCCESS"
        case .io: name = "NFC_EIO"
        case .invalidArgument: name = "NFC_EINVARG"
        case .deviceNotSupported: name = "NFC_EDEVNOTSUPP"
        case .noSuchDevice: name = "NFC_ENOTSUCHDEV"
        case .overflow: name = "NFC_EOVFLOW"
        case .timeout: name = "NFC_ETIMEOUT"
        case .aborted: name = "NFC_EOPABORTED"
        case .notImplemented: name = "NFC_ENOTIMPL"
        case .targetReleased: name = "NFC_ETGRELEASED"
        case .rfTransmissionError: name = "NFC_ERFTRANS"
        case .mifareAuthenticationFailed: name = "NFC_EMFCAUTHFAIL"
        case .software: name = "NFC_ESOFT"
        case .chip: name = "NFC_ECHIP"
        default: name = "libnfc status \(rawValue)"
        }
        guard let detail, !detail.isEmpty else { return name }
        return "\(name) (\(detail))"
    }
}
