import NDEF
import Testing

@Suite struct NDEFTextTests {
    @Test func utf16IsWrittenBigEndianWithByteOrderMark() throws {
        let payload = try NDEFText("é", languageCode: "fr", encoding: .utf16).payload()
        #expect(payload == [0x82, 0x66, 0x72, 0xFE, 0xFF, 0x00, 0xE9])
    }

    @Test func decodesAllThreeUTF16Forms() throws {
        for body: [UInt8] in [[0xFE, 0xFF, 0x00, 0xE9], [0xFF, 0xFE, 0xE9, 0x00], [0x00, 0xE9]] {
            let text = try NDEFText(payload: [0x82, 0x66, 0x72] + body)
            #expect(text == NDEFText("é", languageCode: "fr", encoding: .utf16))
        }
    }

    @Test func emptyUTF16TextHasOnlyTheBOM() throws {
        #expect(try NDEFText("", languageCode: "en", encoding: .utf16).payload() == [0x82, 0x65, 0x6E, 0xFE, 0xFF])
        #expect(try NDEFText(payload: [0x82, 0x65, 0x6E]).text.isEmpty)
    }
}
