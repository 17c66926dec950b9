import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import Synchronization
import TagEmulator
import TestSupport
import Testing

@testable import ProvisionCLI

/// The live status line of one station shows the job's totals from the ledger (every station's work), its own
/// share, and the ETA at the whole line's rate (issue 40, item 5).
@Suite struct JobTotalsTests {
    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        let base = ContinuousClock.now
        let offset = Mutex(Duration.zero)
        func advance(to seconds: Double) { offset.withLock { $0 = .milliseconds(Int(seconds * 1000)) } }
        var now: @Sendable () -> ContinuousClock.Instant { { [self] in base + offset.withLock { $0 } } }
    }

    static func counts(done: Int, pending: Int) -> StateCounts {
        var counts = StateCounts()
        (counts.done, counts.pending) = (done, pending)
        return counts
    }

    @Test func twoStationsOnOneSQLiteLedgerEachShowTheJobsTotalsAndTheirShare() async throws {
        let folder = try Fixtures.temporaryDirectory("job-totals")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
        try await ledger.registerJob(name: "j", manifestHash: "m", templateHash: "t")
        try await ledger.addRows(
            job: "j", rows: (1...4).map { RowInput(row: $0, fields: [:], messageSHA256: [], messageLength: 0) })
        let job = LineJob(name: "j", acceptedChips: [.ntag215], lock: false, tries: 1, onFailure: .reuse) {
            row, _, _, _ in NDEFMessage(records: [NDEFPayload.uri("https://example.com/\(row)")]).bytes
        }
        // Station s1 starts at 0/4 done; its status line reads the ledger on its own connection.
        let clock = ManualClock()
        let s1Ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
        let totals = JobTotals(
            counts: try await s1Ledger.counts(job: "j"), shareLabel: "station s1", now: clock.now
        ) { try? await s1Ledger.counts(job: "j") }
        let sink = TextSink()
        let progress = LiveProgress(totals: totals, display: ProgressDisplay(sink: sink, quiet: false))
        // Meanwhile station s2 does two rows on the same ledger…
        let s2 = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04B00000000001&count=2"))
        _ = try await LineWorker(reader: s2, name: "s2/sim:ntag215", ledger: ledger, job: job).run()
        // …and s1 the other two, a minute after it started.
        clock.advance(to: 60)
        let s1 = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04A00000000001&count=2"))
        _ = try await LineWorker(
            reader: s1, name: "s1/sim:ntag215", ledger: s1Ledger, job: job, events: { progress.handle($0) },
            outcomes: { progress.record($0) }
        ).run()
        await totals.settled()
        progress.handle(.noRowForTag(reader: "s1/sim:ntag215", uid: "04A00000000009"))
        let last = try #require(sink.text.split(separator: "\n").last.map(String.init))
        #expect(last.hasPrefix("4/4 done · station s1 2 · 4.0 tags/min · ETA 0:00 · "), "\(sink.text)")
    }

    @Test func theETAIsAtTheWholeLinesRateAndTheLedgerIsAskedAtMostOnceASecond() async throws {
        let clock = ManualClock()
        let ledgerDone = Mutex(0)
        let reads = Mutex(0)
        let totals = JobTotals(counts: Self.counts(done: 0, pending: 10), shareLabel: "station s1", now: clock.now) {
            reads.withLock { $0 += 1 }
            return Self.counts(done: ledgerDone.withLock { $0 }, pending: 10 - ledgerDone.withLock { $0 })
        }
        // This station did one row; the other stations five more, all within the first minute.
        totals.recordDone()
        ledgerDone.withLock { $0 = 6 }
        clock.advance(to: 0.5)
        #expect(totals.snapshot().done == 1, "not asked again within the second")
        #expect(reads.withLock { $0 } == 0)
        clock.advance(to: 60)
        _ = totals.snapshot()  // starts the refresh
        await totals.settled()
        let snapshot = totals.snapshot()
        #expect(reads.withLock { $0 } == 1, "the second snapshot in the same second does not ask again")
        #expect(snapshot.done == 6 && snapshot.total == 10 && snapshot.here == 1)
        #expect(snapshot.perMinute == 6, "the line's rate, not this station's 1 a minute")
        #expect(snapshot.etaSeconds == 40)
    }
}
