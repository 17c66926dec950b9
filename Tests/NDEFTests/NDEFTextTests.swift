import NDEF
import TestSupport
import Testing

@Suite struct NDEFTextTests {
    /// Text payloads in every encoding form, both ways: status byte, language, then the text.
    static let payloads: [(hex: String, text: NDEFText)] = [
        ("02 65 6E 48 69", NDEFText("Hi", languageCode: "en")),
        ("82 66 72 FE FF 00 E9", NDEFText("é", languageCode: "fr", encoding: .utf16)),
        (
            "82 66 72 FF FE E9 00",
            NDEFText("é", languageCode: "fr", encoding: .utf16, byteOrder: .littleEndianWithMark)
        ),
        ("82 66 72 00 E9", NDEFText("é", languageCode: "fr", encoding: .utf16, byteOrder: .bigEndian)),
        (
            "82 65 6E FF FE 3D D8 00 DE",
            NDEFText("😀", languageCode: "en", encoding: .utf16, byteOrder: .littleEndianWithMark)
        ),
        ("82 65 6E D8 3D DE 00", NDEFText("😀", languageCode: "en", encoding: .utf16, byteOrder: .bigEndian)),
        ("82 65 6E FE FF", NDEFText("", languageCode: "en", encoding: .utf16)),
        ("82 65 6E FF FE", NDEFText("", languageCode: "en", encoding: .utf16, byteOrder: .littleEndianWithMark)),
        ("82 65 6E", NDEFText("", languageCode: "en", encoding: .utf16, byteOrder: .bigEndian)),
        // After a BOM, U+FEFF is text (a zero-width no-break space), kept in every form that has a BOM.
        ("82 65 6E FE FF FE FF 00 41", NDEFText("\u{FEFF}A", languageCode: "en", encoding: .utf16)),
        (
            "82 65 6E FF FE FF FE 41 00",
            NDEFText("\u{FEFF}A", languageCode: "en", encoding: .utf16, byteOrder: .littleEndianWithMark)
        ),
    ]

    @Test(arguments: payloads)
    func decodesPayload(hex: String, text: NDEFText) throws {
        let decoded = try NDEFText(payload: try #require(Hex.bytes(hex)))
        #expect(decoded == text)
        #expect(decoded.byteOrder == text.byteOrder || text.encoding == .utf8)
    }

    @Test(arguments: payloads)
    func encodesPayload(hex: String, text: NDEFText) throws {
        #expect(Hex.string(try text.payload()) == hex)
    }

    @Test func byteOrderIsPartOfUTF16ValuesOnly() {
        let forms = NDEFText.ByteOrder.allCases
        #expect(Set(forms.map { NDEFText("a", languageCode: "en", encoding: .utf16, byteOrder: $0) }).count == 3)
        #expect(Set(forms.map { NDEFText("a", languageCode: "en", byteOrder: $0) }).count == 1)
        #expect(forms.map(\.rawValue) == ["be-bom", "le-bom", "be"])
    }

    @Test(arguments: ["\u{FEFF}A", "\u{FFFE}"])
    func utf16WithoutBOMCannotStartWithWhatReadsAsABOM(text: String) {
        #expect(throws: NDEFError(.invalidText, at: 3, "")) {
            try NDEFText(text, languageCode: "en", encoding: .utf16, byteOrder: .bigEndian).payload()
        }
    }

    @Test func everyUTF16PayloadThatDecodesEncodesToTheSameBytes() throws {
        var random = SeededGenerator(seed: 0x27_0001)
        var decoded = 0
        for _ in 0..<2000 {
            let marks: [[UInt8]] = [[], [0xFE, 0xFF], [0xFF, 0xFE]]
            let units = Int.random(in: 0...6, using: &random)
            let body = (0..<2 * units).map { _ in
                // Mostly ASCII and BMP text, sometimes surrogates and the BOM's own bytes.
                [0x00, 0x41, 0xD8, 0xDC, 0xFE, 0xFF, UInt8.random(in: 0...255, using: &random)].randomElement(
                    using: &random) ?? 0
            }
            let payload = [0x82, 0x65, 0x6E] + marks[Int.random(in: 0..<3, using: &random)] + body
            guard let text = try? NDEFText(payload: payload) else { continue }
            decoded += 1
            #expect(try text.payload() == payload, "\(Hex.string(payload))")
        }
        #expect(decoded > 500)
    }

    @Test func malformedUTF16IsRefusedInEveryForm() {
        // Odd length, and an unpaired high surrogate D83D big-endian, little-endian and without a BOM.
        for hex in ["82 65 6E FE FF 00", "82 65 6E FE FF D8 3D", "82 65 6E FF FE 3D D8", "82 65 6E D8 3D"] {
            #expect(throws: NDEFError(.invalidText, at: 3, "")) { try NDEFText(payload: Hex.bytes(hex) ?? []) }
        }
    }
}
