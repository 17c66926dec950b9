import ReaderLibNFC
import Testing

@Test func libnfcLinksAndReportsItsVersion() {
    #expect(LibNFC.version.hasPrefix("1."))
}
