/// The 3-bit Type Name Format (TNF) of an NDEF record header, with Core NFC's case names.
///
/// NFC Forum NDEF 1.0 §3.2.6. The TNF says how to read the record's TYPE field:
///
/// ```
/// 0 empty         no type, no ID, no payload
/// 1 nfcWellKnown  NFC Forum RTD type ("U", "T", "Sp", …)
/// 2 media         RFC 2046 media type ("text/plain")
/// 3 absoluteURI   RFC 3986 absolute URI
/// 4 nfcExternal   NFC Forum external type ("example.com:auth")
/// 5 unknown       no type; payload of unknown kind
/// 6 unchanged     middle and last chunks of a chunked record only
/// 7 reserved      never valid; decoders reject it
/// ```
public enum NDEFTypeNameFormat: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// TNF 0: the record carries no type, ID or payload.
    case empty = 0
    /// TNF 1: an NFC Forum well-known type (RTD).
    case nfcWellKnown = 1
    /// TNF 2: a media type as defined in RFC 2046.
    case media = 2
    /// TNF 3: an absolute URI as defined in RFC 3986.
    case absoluteURI = 3
    /// TNF 4: an NFC Forum external type (`domain:type`).
    case nfcExternal = 4
    /// TNF 5: the payload type is unknown; the TYPE field is empty.
    case unknown = 5
    /// TNF 6: a middle or last chunk of a chunked record.
    case unchanged = 6
    /// TNF 7: reserved by the NFC Forum; only used to report the error.
    case reserved = 7

    /// The Core NFC case name, such as `nfcWellKnown`.
    public var description: String {
        switch self {
        case .empty: "empty"
        case .nfcWellKnown: "nfcWellKnown"
        case .media: "media"
        case .absoluteURI: "absoluteURI"
        case .nfcExternal: "nfcExternal"
        case .unknown: "unknown"
        case .unchanged: "unchanged"
        case .reserved: "reserved"
        }
    }
}
