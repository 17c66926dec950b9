import ReaderPCSC
import Testing

@Test func pcscLiteLinksAndDescribesStatusCodes() {
    #expect(PCSCStatus.noService.rawValue == 0x8010_001D)
    #expect(!PCSCStatus.noService.description.isEmpty)
}
