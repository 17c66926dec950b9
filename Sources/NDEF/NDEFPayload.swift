import Foundation

/// One logical NDEF record: type name format, type, identifier and payload (Core NFC's shape).
///
/// NFC Forum NDEF 1.0 §3.2. A record on the wire:
///
/// ```
/// MB ME CF SR IL TNF     1 byte
/// TYPE_LENGTH            1 byte
/// PAYLOAD_LENGTH         1 byte (SR = 1) or 4 bytes big-endian (SR = 0)
/// ID_LENGTH              1 byte, present when IL = 1
/// TYPE, ID, PAYLOAD      the bytes themselves
/// ```
///
/// The flags belong to the message encoding (`NDEFMessage.bytes`), not to the value. A value type:
/// records are compared and hashed by their four fields. TYPE and ID hold at most 255 bytes;
/// the encoder writes only the first 255 bytes of a longer field (the typed factories never build one).
public struct NDEFPayload: Sendable, Hashable {
    /// How to read `type` (TNF).
    public var typeNameFormat: NDEFTypeNameFormat
    /// The TYPE field, such as `"U"` for a URI record or `"text/plain"` for a media record.
    public var type: [UInt8]
    /// The ID field (often empty).
    public var identifier: [UInt8]
    /// The PAYLOAD field.
    public var payload: [UInt8]

    /// Creates a record from raw fields (Core NFC's `init(format:type:identifier:payload:)`).
    public init(format: NDEFTypeNameFormat, type: [UInt8], identifier: [UInt8] = [], payload: [UInt8]) {
        self.typeNameFormat = format
        self.type = type
        self.identifier = identifier
        self.payload = payload
    }

    /// The TYPE field as text when it is UTF-8 (`"U"`, `"text/plain"`), else `nil`.
    public var typeString: String? { String(validating: type, as: UTF8.self) }

    // MARK: - Core NFC shapes

    /// A well-known URI record for `url` (Core NFC); `nil` when the URL is empty.
    public static func wellKnownTypeURIPayload(url: URL) -> NDEFPayload? {
        wellKnownTypeURIPayload(string: url.absoluteString)
    }

    /// A well-known URI record for `string` (Core NFC); `nil` when the string is empty.
    ///
    /// The encoder picks the longest of the 36 URI prefixes that matches (NFC Forum URI RTD §3.2.2).
    public static func wellKnownTypeURIPayload(string: String) -> NDEFPayload? {
        string.isEmpty ? nil : .uri(string)
    }

    /// A well-known UTF-8 Text record (Core NFC); `nil` when the locale gives no usable language code.
    ///
    /// The language code is the locale identifier in BCP 47 form (`en_US` → `en-US`).
    public static func wellKnownTypeTextPayload(string: String, locale: Locale) -> NDEFPayload? {
        let code = locale.identifier.replacingOccurrences(of: "_", with: "-")
        return try? .text(string, languageCode: code)
    }

    /// The URL of a well-known URI record (Core NFC); `nil` for any other record or a URI `URL` rejects.
    public func wellKnownTypeURIPayload() -> URL? {
        guard case .uri(let string) = try? content() else { return nil }
        return URL(string: string)
    }

    /// The text and locale of a well-known Text record (Core NFC); `(nil, nil)` for any other record.
    public func wellKnownTypeTextPayload() -> (String?, Locale?) {
        guard case .text(let text) = try? content() else { return (nil, nil) }
        return (text.text, Locale(identifier: text.languageCode))
    }
}
