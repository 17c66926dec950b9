import Testing

@testable import ProvisionCLI

/// The live status line: the outbox's unpublished events (`run --publish`) show only while there are any.
@Suite struct ProgressDisplayTests {
    static func line(unpublished: Int) -> String {
        let sink = TextSink()
        ProgressDisplay(sink: sink, quiet: false).status(
            done: 3, total: 10, share: "this run 3", perMinute: 60, etaSeconds: nil, yield: 1,
            unpublished: unpublished, last: "04A1 row 3 done")
        return sink.text
    }

    @Test func theBacklogShowsOnlyWhileEventsAreUnpublished() {
        #expect(Self.line(unpublished: 12).contains("FPY 100.0 % · 12 unpublished · 04A1 row 3 done"))
        #expect(Self.line(unpublished: 0).contains("FPY 100.0 % · 04A1 row 3 done"))
        #expect(!Self.line(unpublished: 0).contains("unpublished"))
    }
}
