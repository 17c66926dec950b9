import Foundation
import TestSupport
import Testing

@testable import Ledger

@Suite struct LedgerJobsTests {
    @Test(arguments: StoreKind.allCases) func registeringTwiceIsIdempotent(_ kind: StoreKind) async throws {
        let store = try await TestStore.open(kind)
        let ledger = store.ledger
        let first = try await ledger.registerJob(name: "j", manifestHash: "m1", templateHash: "t1")
        let second = try await ledger.registerJob(name: "j", manifestHash: "m1", templateHash: "t1")
        #expect(first == second)
        #expect(try await ledger.jobs().map(\.name) == ["j"])
    }

    @Test(arguments: StoreKind.allCases) func differentManifestIsRefusedUnlessAccepted(_ kind: StoreKind) async throws {
        let store = try await TestStore.open(kind)
        let ledger = store.ledger
        try await ledger.registerJob(name: "j", manifestHash: "m1", templateHash: "t1")
        let error = try await #require(throws: LedgerError.self) {
            try await ledger.registerJob(name: "j", manifestHash: "m2", templateHash: "t1")
        }
        #expect(error.code == .manifestMismatch)
        #expect(error.message.contains("m1") && error.message.contains("m2"))
        #expect(try await ledger.job(named: "j")?.manifestHash == "m1")
        let accepted = try await ledger.registerJob(
            name: "j", manifestHash: "m2", templateHash: "t2", acceptChangedManifest: true)
        #expect(accepted.manifestHash == "m2" && accepted.templateHash == "t2")
        let events = try await ledger.events(job: "j")
        #expect(events.map(\.kind) == ["manifestAccepted"])
        #expect(events.first?.detail?.contains("m1 -> m2") == true)
    }

    @Test(arguments: StoreKind.allCases) func addingRowsIsIdempotentAcrossBatches(_ kind: StoreKind) async throws {
        let store = try await TestStore.open(kind)
        let ledger = store.ledger
        try await ledger.registerJob(name: "j", manifestHash: "m", templateHash: "t")
        #expect(try await ledger.addRows(job: "j", rows: Sample.rows(1...10), batchSize: 3) == 10)
        _ = try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1))
        #expect(try await ledger.addRows(job: "j", rows: Sample.rows(1...12), batchSize: 3) == 2)
        #expect(try await ledger.job(named: "j")?.totalRows == 12)
        #expect(try await ledger.record(job: "j", row: 1)?.state == .claimed)
        #expect(try await ledger.counts(job: "j").pending == 11)
    }

    @Test(arguments: StoreKind.allCases) func rowsToAnUnknownJobAreRefused(_ kind: StoreKind) async throws {
        let store = try await TestStore.open(kind)
        let ledger = store.ledger
        await #expect(throws: LedgerError(.unknownJob, "")) {
            try await ledger.addRows(job: "nope", rows: Sample.rows(1...2))
        }
    }

    @Test(arguments: StoreKind.allCases) func fieldsWithQuotesAndSQLAreStoredVerbatim(_ kind: StoreKind) async throws {
        let store = try await TestStore.open(kind)
        let ledger = store.ledger
        let nasty = "O'Brien\"; DROP TABLE records; -- ' OR '1'='1 \\ \u{1F600}"
        let job = "job'); DELETE FROM jobs; --"
        try await ledger.registerJob(name: job, manifestHash: "m", templateHash: "t")
        let row = RowInput(
            row: 7, fields: ["name": nasty, "url": "https://example.com/a?b=c&d='e'"],
            messageSHA256: Sample.digest(7), messageLength: 12)
        try await ledger.addRows(job: job, rows: [row])
        let stored = try #require(try await ledger.record(job: job, row: 7))
        #expect(stored.fields == row.fields)
        #expect(stored.messageSHA256 == row.messageSHA256)
        #expect(try await ledger.jobs().map(\.name) == [job])
        let claimed = try #require(try await ledger.claim(job: job, reader: nasty, uid: Sample.uid(1)))
        #expect(claimed.fields["name"] == nasty)
        #expect(try await ledger.record(job: job, row: 7)?.claimedBy == nasty)
    }

    @Test(.timeLimit(.minutes(3)))
    func hundredThousandRowsInsertInBatches() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Ledger.open(path: folder.path())
        try await ledger.registerJob(name: "big", manifestHash: "m", templateHash: "t")
        let rows = Sample.rows(1...100_000)
        #expect(try await ledger.addRows(job: "big", rows: rows) == 100_000)
        #expect(try await ledger.counts(job: "big").pending == 100_000)
        // Claiming uses the open-rows index, not a scan.
        let plan = try await ledger.rawQuery(
            "EXPLAIN QUERY PLAN SELECT row FROM records WHERE job = ? AND \(Ledger.isOpen) AND state = 'pending' "
                + "ORDER BY row LIMIT 1", ["big"])
        let detail = plan.compactMap { $0.last ?? nil }.joined(separator: " | ")
        #expect(detail.contains("USING COVERING INDEX records_open"))
        #expect(!detail.contains("TEMP B-TREE"))
        let claimed = try await ledger.claim(job: "big", reader: "r", uid: Sample.uid(1))
        #expect(claimed?.row == 1)
    }

    @Test(arguments: StoreKind.allCases) func startAndFinishAreRecorded(_ kind: StoreKind) async throws {
        let store = try await TestStore.open(kind)
        let ledger = store.ledger
        try await ledger.registerJob(name: "j", manifestHash: "m", templateHash: "t")
        try await ledger.markStarted(job: "j")
        let started = try #require(try await ledger.job(named: "j")?.startedAt)
        try await ledger.markFinished(job: "j")
        try await ledger.markStarted(job: "j")
        let job = try #require(try await ledger.job(named: "j"))
        #expect(job.startedAt == started)
        #expect(job.finishedAt == nil)
        await #expect(throws: LedgerError(.unknownJob, "")) { try await ledger.markStarted(job: "x") }
    }
}
