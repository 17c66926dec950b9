import NDEF
import Testing

@Suite struct NDEFPayloadDescriptionTests {
    @Test func aURIIsShownWholeWithItsPosition() {
        let uri = "https://example.com/" + String(repeating: "a", count: 80)
        let line = NDEFPayload.uri(uri).summaryLine(index: 2)
        #expect(line.hasPrefix("record 2: nfcWellKnown (1), type \"U\", no id, URI \"\(uri)\", "))
    }

    @Test func longTextIsShortenedAndUnknownBytesArePreviewedInHex() throws {
        let text = try NDEFPayload.text(String(repeating: "x", count: 70), languageCode: "en").summaryLine
        #expect(text.contains("text \"\(String(repeating: "x", count: 60))…\" (en, utf8)"))
        let data = NDEFPayload(format: .media, type: Array("a/b".utf8), payload: [0x00, 0x01]).summaryLine
        #expect(data == "media (2), type \"a/b\", no id, data 00 01, 2-byte payload")
    }
}
