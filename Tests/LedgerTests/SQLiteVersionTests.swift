import Ledger
import Testing

@Test func sqliteLinksAndReportsItsVersion() {
    #expect(SQLiteLibrary.version.hasPrefix("3."))
}
