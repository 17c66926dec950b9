import NFCTags
import Testing

/// `TapURLQuery`: only the query counts (after the first `?`, up to a `#`), empty pieces are skipped, a piece without
/// `=` has an empty value, a name given twice is refused, and each value's range points at it in the URL.
@Suite struct TapURLQueryTests {
    @Test func readsTheQueryOnlyWithRangesIntoTheURL() throws {
        let url = "https://ex.com/p&picc_data=X/é?picc_data=AB12&&cmac=CD&flag&x=ü=1#cmac=EE"
        let query = try TapURLQuery(url)
        #expect(query.parameters.map(\.name) == ["picc_data", "cmac", "flag", "x"])
        #expect(query.parameters.map(\.value) == ["AB12", "CD", "", "ü=1"])
        for parameter in query.parameters { #expect(String(url[parameter.range]) == parameter.value) }
        #expect(query.parameter("cmac")?.value == "CD")
        #expect(query.parameter("CMAC") == nil)
    }

    @Test func noQueryEmptyQueryAndADuplicate() throws {
        #expect(try TapURLQuery("https://ex.com/p#a=1").parameters.isEmpty)
        #expect(try TapURLQuery("https://ex.com/p?").parameters.isEmpty)
        #expect(try TapURLQuery("https://ex.com/p?#a=1").parameters.isEmpty)
        let duplicate = #expect(throws: TapURLQuery.Duplicate.self) {
            try TapURLQuery("https://ex.com/?cmac=1&a=2&cmac=3")
        }
        #expect(duplicate?.name == "cmac")
    }
}
