/// The content of a well-known Text record ("T"): text, language code and encoding.
///
/// NFC Forum Text RTD 1.0 §3.2. Payload layout:
///
/// ```
/// status   bit 7: 0 = UTF-8, 1 = UTF-16; bit 6: reserved (0); bits 5–0: language code length (1–63)
/// lang     IANA / BCP 47 language code, US-ASCII ("en", "en-US")
/// text     UTF-8, or UTF-16 (big-endian unless a BOM says otherwise)
/// ```
///
/// The encoder writes UTF-16 as a byte order mark `FE FF` then big-endian code units, the form Android
/// writes; the decoder also accepts little-endian with `FF FE` and big-endian without a BOM.
public struct NDEFText: Sendable, Hashable {
    /// The text encoding bit of the status byte.
    public enum Encoding: String, Sendable, Hashable, CaseIterable {
        /// Status bit 7 clear.
        case utf8
        /// Status bit 7 set.
        case utf16
    }

    /// The text itself.
    public var text: String
    /// The language code, 1–63 bytes of printable US-ASCII.
    public var languageCode: String
    /// How the text is encoded in the payload.
    public var encoding: Encoding

    /// Creates a text value.
    public init(_ text: String, languageCode: String, encoding: Encoding = .utf8) {
        self.text = text
        self.languageCode = languageCode
        self.encoding = encoding
    }

    /// The record payload for this text.
    ///
    /// - Throws: `invalidLanguageCode` when the code is empty, longer than 63 bytes or not printable
    ///   ASCII (offset of the bad byte in the code).
    public func payload() throws(NDEFError) -> [UInt8] {
        let language = Array(languageCode.utf8)
        try Self.checkLanguage(language, base: 0)
        var out: [UInt8] = [(encoding == .utf16 ? 0x80 : 0x00) | UInt8(language.count)]
        out += language
        switch encoding {
        case .utf8:
            out += Array(text.utf8)
        case .utf16:
            out += [0xFE, 0xFF]
            for unit in text.utf16 { out += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        }
        return out
    }

    /// Decodes a Text record payload.
    ///
    /// - Throws: `payloadTooShort`, `invalidTextStatus`, `invalidLanguageCode` or `invalidText`, with
    ///   offsets relative to the payload's first byte.
    public init(payload: [UInt8]) throws(NDEFError) {
        guard let status = payload.first else {
            throw NDEFError(.payloadTooShort, at: 0, "a Text payload needs its status byte")
        }
        guard status & 0x40 == 0 else {
            throw NDEFError(.invalidTextStatus, at: 0, "the reserved bit 6 of the Text status byte is set")
        }
        let length = Int(status & 0x3F)
        guard length > 0 else {
            throw NDEFError(.invalidLanguageCode, at: 0, "the Text language code length is 0")
        }
        guard payload.count >= 1 + length else {
            throw NDEFError(
                .payloadTooShort, at: 0, "the language code needs \(length) bytes, \(payload.count - 1) remain")
        }
        let language = Array(payload[1...length])
        try Self.checkLanguage(language, base: 1)
        let body = payload[(1 + length)...]
        let bodyOffset = 1 + length
        if status & 0x80 == 0 {
            guard let text = String(validating: body, as: UTF8.self) else {
                throw NDEFError(.invalidText, at: bodyOffset, "the text is not valid UTF-8")
            }
            self.init(text, languageCode: String(decoding: language, as: UTF8.self), encoding: .utf8)
        } else {
            let text = try Self.decodeUTF16(Array(body), offset: bodyOffset)
            self.init(text, languageCode: String(decoding: language, as: UTF8.self), encoding: .utf16)
        }
    }

    private static func decodeUTF16(_ body: [UInt8], offset: Int) throws(NDEFError) -> String {
        guard body.count % 2 == 0 else {
            throw NDEFError(.invalidText, at: offset, "UTF-16 text has an odd number of bytes (\(body.count))")
        }
        var bigEndian = true
        var start = 0
        if body.count >= 2, body[0] == 0xFE, body[1] == 0xFF {
            start = 2
        } else if body.count >= 2, body[0] == 0xFF, body[1] == 0xFE {
            bigEndian = false
            start = 2
        }
        var units: [UInt16] = []
        units.reserveCapacity(body.count / 2)
        var index = start
        while index + 1 < body.count {
            let high = bigEndian ? body[index] : body[index + 1]
            let low = bigEndian ? body[index + 1] : body[index]
            units.append(UInt16(high) << 8 | UInt16(low))
            index += 2
        }
        guard let text = String(validating: units, as: UTF16.self) else {
            throw NDEFError(.invalidText, at: offset, "the text is not valid UTF-16")
        }
        return text
    }

    static func checkLanguage(_ language: [UInt8], base: Int) throws(NDEFError) {
        guard !language.isEmpty else {
            throw NDEFError(.invalidLanguageCode, at: base, "the language code is empty")
        }
        guard language.count <= 63 else {
            throw NDEFError(.invalidLanguageCode, at: base, "the language code is longer than 63 bytes")
        }
        if let bad = language.firstIndex(where: { $0 <= 0x20 || $0 >= 0x7F }) {
            throw NDEFError(
                .invalidLanguageCode, at: base + bad, "the language code has a byte that is not printable ASCII")
        }
    }
}
