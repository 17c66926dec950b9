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
/// UTF-16 comes in three forms, kept in `byteOrder` so a decoded payload encodes back to the same
/// bytes: `FE FF` then big-endian code units (the encoder's default, the form Android writes),
/// `FF FE` then little-endian, and big-endian without a BOM (the Text RTD's reading of text without one).
///
/// Values are compared by what they encode: `byteOrder` counts only for UTF-16 text.
public struct NDEFText: Sendable, Hashable {
    /// The text encoding bit of the status byte.
    public enum Encoding: String, Sendable, Hashable, CaseIterable {
        /// Status bit 7 clear.
        case utf8
        /// Status bit 7 set.
        case utf16
    }

    /// How UTF-16 text is laid out: the byte order of its code units and whether a BOM announces it.
    ///
    /// The raw values are the record JSON `byteOrder` names.
    public enum ByteOrder: String, Sendable, Hashable, CaseIterable {
        /// BOM `FE FF`, then big-endian code units.
        case bigEndianWithMark = "be-bom"
        /// BOM `FF FE`, then little-endian code units.
        case littleEndianWithMark = "le-bom"
        /// Big-endian code units and no BOM.
        case bigEndian = "be"
    }

    /// The text itself.
    public var text: String
    /// The language code, 1–63 bytes of printable US-ASCII.
    public var languageCode: String
    /// How the text is encoded in the payload.
    public var encoding: Encoding
    /// The UTF-16 layout; ignored for UTF-8 text.
    public var byteOrder: ByteOrder

    /// Creates a text value.
    public init(
        _ text: String, languageCode: String, encoding: Encoding = .utf8, byteOrder: ByteOrder = .bigEndianWithMark
    ) {
        self.text = text
        self.languageCode = languageCode
        self.encoding = encoding
        self.byteOrder = byteOrder
    }

    /// Equal when text, language and encoding are equal, and for UTF-16 the byte order too.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.text == rhs.text && lhs.languageCode == rhs.languageCode && lhs.encoding == rhs.encoding
            && (lhs.encoding == .utf8 || lhs.byteOrder == rhs.byteOrder)
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(languageCode)
        hasher.combine(encoding)
        if encoding == .utf16 { hasher.combine(byteOrder) }
    }

    /// The record payload for this text.
    ///
    /// - Throws: `invalidLanguage` when the code is empty, longer than 63 bytes or not printable
    ///   ASCII (offset of the bad byte in the code); `invalidText` (offset of the text) for UTF-16
    ///   without a BOM that starts with U+FEFF or U+FFFE, which a decoder would take for a BOM.
    public func payload() throws(NDEFError) -> [UInt8] {
        let language = Array(languageCode.utf8)
        try Self.checkLanguage(language, base: 0)
        var out: [UInt8] = [(encoding == .utf16 ? 0x80 : 0x00) | UInt8(language.count)]
        out += language
        switch encoding {
        case .utf8:
            out += Array(text.utf8)
        case .utf16:
            out.reserveCapacity(out.count + 2 + 2 * text.utf16.count)
            switch byteOrder {
            case .bigEndianWithMark: out += [0xFE, 0xFF]
            case .littleEndianWithMark: out += [0xFF, 0xFE]
            case .bigEndian:
                if let first = text.utf16.first, first == 0xFEFF || first == 0xFFFE {
                    let name = first == 0xFEFF ? "U+FEFF" : "U+FFFE"
                    throw NDEFError(
                        .invalidText, at: out.count,
                        "UTF-16 text without a BOM cannot start with \(name) (it reads as a BOM)")
                }
            }
            let littleEndian = byteOrder == .littleEndianWithMark
            for unit in text.utf16 {
                let high = UInt8(unit >> 8)
                let low = UInt8(unit & 0xFF)
                out.append(littleEndian ? low : high)
                out.append(littleEndian ? high : low)
            }
        }
        return out
    }

    /// Decodes a Text record payload.
    ///
    /// - Throws: `payloadTooShort`, `invalidTextStatus`, `invalidLanguage` or `invalidText`, with
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
            throw NDEFError(.invalidLanguage, at: 0, "the Text language code length is 0")
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
            let (text, byteOrder) = try Self.decodeUTF16(Array(body), offset: bodyOffset)
            self.init(
                text, languageCode: String(decoding: language, as: UTF8.self), encoding: .utf16, byteOrder: byteOrder)
        }
    }

    /// The text of a UTF-16 body and its layout, read from the BOM (none: big-endian).
    private static func decodeUTF16(_ body: [UInt8], offset: Int) throws(NDEFError) -> (String, ByteOrder) {
        guard body.count % 2 == 0 else {
            throw NDEFError(.invalidText, at: offset, "UTF-16 text has an odd number of bytes (\(body.count))")
        }
        var byteOrder = ByteOrder.bigEndian
        if body.count >= 2, body[0] == 0xFE, body[1] == 0xFF {
            byteOrder = .bigEndianWithMark
        } else if body.count >= 2, body[0] == 0xFF, body[1] == 0xFE {
            byteOrder = .littleEndianWithMark
        }
        let bigEndian = byteOrder != .littleEndianWithMark
        let start = byteOrder == .bigEndian ? 0 : 2
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
        return (text, byteOrder)
    }

    static func checkLanguage(_ language: [UInt8], base: Int) throws(NDEFError) {
        guard !language.isEmpty else {
            throw NDEFError(.invalidLanguage, at: base, "the language code is empty")
        }
        guard language.count <= 63 else {
            throw NDEFError(.invalidLanguage, at: base, "the language code is longer than 63 bytes")
        }
        if let bad = language.firstIndex(where: { $0 <= 0x20 || $0 >= 0x7F }) {
            throw NDEFError(
                .invalidLanguage, at: base + bad, "the language code has a byte that is not printable ASCII")
        }
    }
}
