import Foundation
import TestSupport
import Testing

/// Two `provision run` processes on one machine share one job's SQLite ledger (docs/ledger.md) while their
/// simulated readers present the same UIDs: a UID the other process has just finished is recognised as already
/// provisioned and both carry on (issue 26, "SQLite, several processes").
@Suite struct SharedSQLiteLedgerTests {
    @Test func twoProcessesSeeingTheSameUIDsBothExitZeroAndEveryRowIsDoneOnce() async throws {
        let rows = 200
        let folder = try JobFolder(rows: rows, lock: false)
        let arguments = ["run", "job.json", "--quiet", "--reader", "sim:ntag215?timing=instant&uid=04510000000001"]
        async let first = onThread { try ProvisionProcess.run(arguments, directory: folder.url) }
        async let second = onThread { try ProvisionProcess.run(arguments, directory: folder.url) }
        let (a, b) = try await (first, second)
        #expect(a.status == 0, "\(a.stderr)")
        #expect(b.status == 0, "\(b.stderr)")
        #expect(try folder.query("SELECT state, count(*) FROM records GROUP BY state") == [["done", "\(rows)"]])
        #expect(try folder.query("SELECT count(*) - count(DISTINCT uid) FROM records") == [["0"]], "no UID twice")
        #expect(try folder.query("SELECT count(*) FROM attempts WHERE outcome = 'done'") == [["\(rows)"]])
        // Every UID the second reader also presented is recorded as a duplicate, none as a failure.
        #expect(try folder.query("SELECT count(*) FROM attempts WHERE outcome = 'failed'") == [["0"]])
    }
}
