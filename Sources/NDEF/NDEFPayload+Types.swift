/// Typed factories: build a correct record for each kind the NFC Forum defines.
extension NDEFPayload {
    /// A well-known URI record ("U"); the longest matching prefix code is chosen (URI RTD §3.2.2).
    public static func uri(_ uri: String, identifier: [UInt8] = []) -> NDEFPayload {
        NDEFPayload(
            format: .nfcWellKnown, type: [UInt8(ascii: "U")], identifier: identifier,
            payload: URIPrefix.payload(for: uri))
    }

    /// A well-known Text record ("T") in UTF-8 or UTF-16 (Text RTD §3.2); `byteOrder` lays out UTF-16.
    ///
    /// - Throws: `invalidLanguage` when the code is empty, over 63 bytes or not printable ASCII;
    ///   `invalidText` for UTF-16 without a BOM starting with U+FEFF or U+FFFE (`NDEFText.payload()`).
    public static func text(
        _ text: String, languageCode: String, encoding: NDEFText.Encoding = .utf8,
        byteOrder: NDEFText.ByteOrder = .bigEndianWithMark, identifier: [UInt8] = []
    ) throws(NDEFError) -> NDEFPayload {
        let value = NDEFText(text, languageCode: languageCode, encoding: encoding, byteOrder: byteOrder)
        return NDEFPayload(
            format: .nfcWellKnown, type: [UInt8(ascii: "T")], identifier: identifier, payload: try value.payload())
    }

    /// A well-known Smart Poster record ("Sp").
    ///
    /// - Throws: `invalidLanguage` (a title) or `invalidMediaType` (the type hint).
    public static func smartPoster(_ poster: NDEFSmartPoster, identifier: [UInt8] = []) throws(NDEFError) -> NDEFPayload
    {
        NDEFPayload(
            format: .nfcWellKnown, type: Array("Sp".utf8), identifier: identifier, payload: try poster.payload())
    }

    /// Any other well-known record, such as `"Hc"`, with a raw payload.
    ///
    /// - Throws: `invalidWellKnownType` for an empty name or one that is not printable ASCII.
    public static func wellKnown(_ name: String, payload: [UInt8], identifier: [UInt8] = []) throws(NDEFError)
        -> NDEFPayload
    {
        let type = Array(name.utf8)
        guard !type.isEmpty, type.count <= 255 else {
            throw NDEFError(.invalidWellKnownType, at: 0, "a well-known type name has 1–255 bytes")
        }
        try NDEFTypeSyntax.checkWellKnownType(type)
        return NDEFPayload(format: .nfcWellKnown, type: type, identifier: identifier, payload: payload)
    }

    /// A media record (TNF 2) such as `application/json` (RFC 2046 `type/subtype`).
    ///
    /// - Throws: `invalidMediaType` at the offending byte of `mediaType`.
    public static func mime(_ mediaType: String, payload: [UInt8], identifier: [UInt8] = []) throws(NDEFError)
        -> NDEFPayload
    {
        let type = Array(mediaType.utf8)
        guard type.count <= 255 else {
            throw NDEFError(.invalidMediaType, at: 255, "a media type has at most 255 bytes")
        }
        try NDEFTypeSyntax.checkMediaType(type)
        return NDEFPayload(format: .media, type: type, identifier: identifier, payload: payload)
    }

    /// An absolute-URI record (TNF 3): the URI is the TYPE; the payload is usually empty.
    ///
    /// - Throws: `invalidAbsoluteURI` for an empty URI or one that is not printable ASCII.
    public static func absoluteURI(_ uri: String, payload: [UInt8] = [], identifier: [UInt8] = []) throws(NDEFError)
        -> NDEFPayload
    {
        let type = Array(uri.utf8)
        guard !type.isEmpty, type.count <= 255 else {
            throw NDEFError(.invalidAbsoluteURI, at: 0, "an absolute URI has 1–255 bytes")
        }
        try NDEFTypeSyntax.checkAbsoluteURI(type)
        return NDEFPayload(format: .absoluteURI, type: type, identifier: identifier, payload: payload)
    }

    /// An NFC Forum external record (TNF 4) named `domain:type`; the domain is lower-cased (RTD 1.0 §3.2).
    ///
    /// - Throws: `invalidExternalType` at the offending byte of the name.
    public static func external(_ name: String, payload: [UInt8], identifier: [UInt8] = []) throws(NDEFError)
        -> NDEFPayload
    {
        var type = Array(name.utf8)
        if let colon = type.firstIndex(of: UInt8(ascii: ":")) {
            type = Array(String(decoding: type[..<colon], as: UTF8.self).lowercased().utf8) + type[colon...]
        }
        guard type.count <= 255 else {
            throw NDEFError(.invalidExternalType, at: 255, "an external type has at most 255 bytes")
        }
        try NDEFTypeSyntax.checkExternalType(type)
        return NDEFPayload(format: .nfcExternal, type: type, identifier: identifier, payload: payload)
    }

    /// An unknown-type record (TNF 5).
    public static func unknown(payload: [UInt8], identifier: [UInt8] = []) -> NDEFPayload {
        NDEFPayload(format: .unknown, type: [], identifier: identifier, payload: payload)
    }

    /// The empty record (TNF 0, no type, ID or payload): `D0 00 00` as a whole message.
    public static let empty = NDEFPayload(format: .empty, type: [], identifier: [], payload: [])

    /// Builds the record for decoded content (the inverse of `content()`).
    ///
    /// - Throws: the typed factory's error for invalid names, languages or media types.
    public init(content: NDEFRecordContent, identifier: [UInt8] = []) throws(NDEFError) {
        switch content {
        case .empty: self = .empty
        case .uri(let uri): self = .uri(uri, identifier: identifier)
        case .text(let text):
            self = try .text(
                text.text, languageCode: text.languageCode, encoding: text.encoding, byteOrder: text.byteOrder,
                identifier: identifier)
        case .smartPoster(let poster): self = try .smartPoster(poster, identifier: identifier)
        case .wellKnown(let type, let payload): self = try .wellKnown(type, payload: payload, identifier: identifier)
        case .mime(let type, let payload): self = try .mime(type, payload: payload, identifier: identifier)
        case .absoluteURI(let uri, let payload): self = try .absoluteURI(uri, payload: payload, identifier: identifier)
        case .external(let name, let payload): self = try .external(name, payload: payload, identifier: identifier)
        case .unknown(let payload): self = .unknown(payload: payload, identifier: identifier)
        }
    }
}
