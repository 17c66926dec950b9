import NDEF
import Testing

/// One valid message: its bytes, what each record means, and each record's ID.
struct MessageVector: Sendable, CustomTestStringConvertible {
    let name: String
    let hex: String
    let contents: [NDEFRecordContent]
    let identifiers: [[UInt8]]

    init(_ name: String, _ hex: String, _ contents: [NDEFRecordContent], ids: [[UInt8]]? = nil) {
        self.name = name
        self.hex = hex
        self.contents = contents
        self.identifiers = ids ?? contents.map { _ in [] }
    }

    var testDescription: String { name }
}

func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

func hexOf(_ text: String) -> String { Hex.string(Array(text.utf8)) }

/// A message with `count` bytes `00 01 02 … FF 00 …`.
func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0 & 0xFF) } }

enum Vectors {
    /// Every URI prefix code 00–23 with the rest "a": `D1 01 02 55 <code> 61`.
    static let uriPrefixes: [MessageVector] = [
        "a", "http://www.a", "https://www.a", "http://a", "https://a", "tel:a", "mailto:a",
        "ftp://anonymous:anonymous@a", "ftp://ftp.a", "ftps://a", "sftp://a", "smb://a", "nfs://a", "ftp://a",
        "dav://a", "news:a", "telnet://a", "imap:a", "rtsp://a", "urn:a", "pop:a", "sip:a", "sips:a", "tftp:a",
        "btspp://a", "btl2cap://a", "btgoep://a", "tcpobex://a", "irdaobex://a", "file://a", "urn:epc:id:a",
        "urn:epc:tag:a", "urn:epc:pat:a", "urn:epc:raw:a", "urn:epc:a", "urn:nfc:a",
    ].enumerated().map { code, uri in
        MessageVector("URI code \(code)", "D1 01 02 55 \(Hex.string([UInt8(code)])) 61", [.uri(uri)])
    }

    static let text: [MessageVector] = [
        MessageVector(
            "Text en UTF-8", "D1 01 08 54 02 65 6E 48 65 6C 6C 6F", [.text(NDEFText("Hello", languageCode: "en"))]),
        MessageVector(
            "Text de UTF-8", "D1 01 0A 54 02 64 65 47 72 C3 BC C3 9F 65", [.text(NDEFText("Grüße", languageCode: "de"))]
        ),
        MessageVector(
            "Text ja UTF-8", "D1 01 09 54 02 6A 61 E6 97 A5 E6 9C AC", [.text(NDEFText("日本", languageCode: "ja"))]),
        MessageVector(
            "Text ru UTF-8", "D1 01 0F 54 02 72 75 D0 9F D1 80 D0 B8 D0 B2 D0 B5 D1 82",
            [.text(NDEFText("Привет", languageCode: "ru"))]),
        MessageVector(
            "Text en-US UTF-8", "D1 01 08 54 05 65 6E 2D 55 53 48 69", [.text(NDEFText("Hi", languageCode: "en-US"))]),
        MessageVector("Text empty", "D1 01 03 54 02 65 6E", [.text(NDEFText("", languageCode: "en"))]),
        MessageVector(
            "Text en UTF-16", "D1 01 09 54 82 65 6E FE FF 00 48 00 69",
            [.text(NDEFText("Hi", languageCode: "en", encoding: .utf16))]),
        MessageVector(
            "Text ja UTF-16", "D1 01 09 54 82 6A 61 FE FF 65 E5 67 2C",
            [.text(NDEFText("日本", languageCode: "ja", encoding: .utf16))]),
        MessageVector(
            "Text de UTF-16", "D1 01 0F 54 82 64 65 FE FF 00 47 00 72 00 FC 00 DF 00 65",
            [.text(NDEFText("Grüße", languageCode: "de", encoding: .utf16))]),
        MessageVector(
            "Text emoji UTF-16 surrogate pair", "D1 01 09 54 82 65 6E FE FF D8 3D DE 00",
            [.text(NDEFText("😀", languageCode: "en", encoding: .utf16))]),
        MessageVector(
            "Text emoji UTF-8", "D1 01 07 54 02 65 6E F0 9F 98 80", [.text(NDEFText("😀", languageCode: "en"))]),
        MessageVector(
            "Text en UTF-16 without BOM", "D1 01 07 54 82 65 6E 00 48 00 69",
            [.text(NDEFText("Hi", languageCode: "en", encoding: .utf16, byteOrder: .bigEndian))]),
        MessageVector(
            "Text en UTF-16 little-endian BOM", "D1 01 09 54 82 65 6E FF FE 48 00 69 00",
            [.text(NDEFText("Hi", languageCode: "en", encoding: .utf16, byteOrder: .littleEndianWithMark))]),
        MessageVector(
            "Text ja UTF-16 little-endian BOM", "D1 01 09 54 82 6A 61 FF FE E5 65 2C 67",
            [.text(NDEFText("日本", languageCode: "ja", encoding: .utf16, byteOrder: .littleEndianWithMark))]),
        MessageVector(
            "Text emoji UTF-16 without BOM", "D1 01 07 54 82 65 6E D8 3D DE 00",
            [.text(NDEFText("😀", languageCode: "en", encoding: .utf16, byteOrder: .bigEndian))]),
        MessageVector(
            "Text empty UTF-16 without BOM", "D1 01 03 54 82 65 6E",
            [.text(NDEFText("", languageCode: "en", encoding: .utf16, byteOrder: .bigEndian))]),
        MessageVector(
            "Smart Poster title UTF-16 little-endian BOM",
            "D1 02 13 53 70 91 01 02 55 04 61 51 01 09 54 82 65 6E FF FE 48 00 69 00",
            [
                .smartPoster(
                    NDEFSmartPoster(
                        uri: "https://a",
                        titles: [
                            NDEFText("Hi", languageCode: "en", encoding: .utf16, byteOrder: .littleEndianWithMark)
                        ]))
            ]),
    ]

    static let smartPosters: [MessageVector] = [
        MessageVector(
            "Smart Poster URI only", "D1 02 10 53 70 D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D",
            [.smartPoster(NDEFSmartPoster(uri: "https://example.com"))]),
        MessageVector(
            "Smart Poster with title",
            "D1 02 1C 53 70 91 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D 51 01 08 54 02 65 6E 48 65 6C 6C 6F",
            [.smartPoster(NDEFSmartPoster(uri: "https://example.com", titles: [NDEFText("Hello", languageCode: "en")]))]
        ),
        MessageVector(
            "Smart Poster two titles and action",
            "D1 02 23 53 70 91 01 04 55 05 31 32 33 11 01 05 54 02 65 6E 48 69 11 01 07 54 02 66 72 53 61 6C 75 "
                + "51 03 01 61 63 74 00",
            [
                .smartPoster(
                    NDEFSmartPoster(
                        uri: "tel:123",
                        titles: [NDEFText("Hi", languageCode: "en"), NDEFText("Salu", languageCode: "fr")],
                        action: .exec))
            ]),
        MessageVector(
            "Smart Poster action, size, type",
            "D1 02 22 53 70 91 01 02 55 03 61 11 03 01 61 63 74 02 11 01 04 73 00 01 00 00 51 01 09 74 "
                + "74 65 78 74 2F 68 74 6D 6C",
            [.smartPoster(NDEFSmartPoster(uri: "http://a", action: .edit, size: 65536, mediaType: "text/html"))]),
        MessageVector(
            "Smart Poster then URI",
            "91 02 08 53 70 D1 01 04 55 04 61 2E 62 51 01 04 55 04 61 2E 63",
            [.smartPoster(NDEFSmartPoster(uri: "https://a.b")), .uri("https://a.c")]),
    ]

    static let formats: [MessageVector] = [
        MessageVector("empty record", "D0 00 00", [.empty]),
        MessageVector(
            "media text/plain", "D2 0A 02 74 65 78 74 2F 70 6C 61 69 6E 68 69",
            [.mime(type: "text/plain", payload: ascii("hi"))]),
        MessageVector("media empty payload", "D2 03 00 61 2F 62", [.mime(type: "a/b", payload: [])]),
        MessageVector("absolute URI", "D3 07 00 75 72 6E 3A 78 3A 31", [.absoluteURI("urn:x:1", payload: [])]),
        MessageVector("absolute URI with payload", "D3 03 01 61 3A 62 FF", [.absoluteURI("a:b", payload: [0xFF])]),
        MessageVector(
            "external", "D4 10 02 65 78 61 6D 70 6C 65 2E 63 6F 6D 3A 61 75 74 68 01 02",
            [.external(name: "example.com:auth", payload: [0x01, 0x02])]),
        MessageVector("unknown", "D5 00 02 01 02", [.unknown(payload: [0x01, 0x02])]),
        MessageVector("unknown empty", "D5 00 00", [.unknown(payload: [])]),
        MessageVector("well-known Hc raw", "D1 02 02 48 63 00 01", [.wellKnown(type: "Hc", payload: [0x00, 0x01])]),
        MessageVector("URI empty rest", "D1 01 01 55 00", [.uri("")]),
    ]

    static let identifiers: [MessageVector] = [
        MessageVector(
            "URI with ID", "D9 01 0C 01 55 61 04 65 78 61 6D 70 6C 65 2E 63 6F 6D", [.uri("https://example.com")],
            ids: [ascii("a")]),
        MessageVector(
            "unknown with binary ID", "DD 00 01 02 00 FF 7F", [.unknown(payload: [0x7F])], ids: [[0x00, 0xFF]]),
        MessageVector(
            "two records with IDs", "99 01 02 01 55 31 03 61 59 01 03 02 54 32 33 02 65 6E",
            [.uri("http://a"), .text(NDEFText("", languageCode: "en"))], ids: [ascii("1"), ascii("23")]),
    ]

    static let multiRecord: [MessageVector] = [
        MessageVector(
            "three records", "91 01 02 55 04 61 11 01 03 54 02 65 6E 52 03 01 61 2F 62 7A",
            [.uri("https://a"), .text(NDEFText("", languageCode: "en")), .mime(type: "a/b", payload: ascii("z"))]),
        MessageVector("URI then empty", "91 01 02 55 03 62 50 00 00", [.uri("http://b"), .empty]),
    ]

    /// Payloads of 256 bytes and more use the 4-byte length (SR clear).
    static let long: [MessageVector] = [
        MessageVector(
            "media 300-byte payload",
            "C2 18 00 00 01 2C " + hexOf("application/octet-stream") + " " + Hex.string(pattern(300)),
            [.mime(type: "application/octet-stream", payload: pattern(300))]),
        MessageVector(
            "media 256-byte payload", "C2 03 00 00 01 00 61 2F 62 " + Hex.string(pattern(256)),
            [.mime(type: "a/b", payload: pattern(256))]),
        MessageVector(
            "media 255-byte payload stays short", "D2 03 FF 61 2F 62 " + Hex.string(pattern(255)),
            [.mime(type: "a/b", payload: pattern(255))]),
        MessageVector(
            "URI 400 bytes", "C1 01 00 00 01 90 55 04 " + hexOf(String(repeating: "x", count: 399)),
            [.uri("https://" + String(repeating: "x", count: 399))]),
        MessageVector(
            "long then short", "82 03 00 00 01 00 61 2F 62 " + Hex.string(pattern(256)) + " 50 00 00",
            [.mime(type: "a/b", payload: pattern(256)), .empty]),
    ]

    static let all: [MessageVector] = uriPrefixes + text + smartPosters + formats + identifiers + multiRecord + long
}
