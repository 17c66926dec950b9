import NDEF
import Testing

@Suite struct NDEFSmartPosterTests {
    @Test func recordsComeInEncodingOrder() throws {
        let poster = NDEFSmartPoster(
            uri: "https://a", titles: [NDEFText("T", languageCode: "en")], action: .save, size: 0x0102_0304,
            mediaType: "text/html", otherRecords: [.unknown(payload: [9])])
        let records = try poster.records()
        #expect(records.map { String(decoding: $0.type, as: UTF8.self) } == ["U", "T", "act", "s", "t", ""])
        #expect(records[3].payload == [0x01, 0x02, 0x03, 0x04])
        #expect(records[2].payload == [0x01])
        #expect(try NDEFSmartPoster(payload: poster.payload()) == poster)
    }

    @Test func badTypeHintIsRejectedWhenBuilding() {
        #expect(throws: NDEFError.self) { try NDEFSmartPoster(uri: "https://a", mediaType: "html").payload() }
    }
}
