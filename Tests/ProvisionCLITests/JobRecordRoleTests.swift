import Foundation
import TestSupport
import Testing

/// On a ledger server a station registers and starts a job, but any other change to the job's record (`run
/// --accept-new-rows`, `--accept-changed-manifest`) is the supervisor's: a station's login that runs with such a
/// flag is refused with exit 77 naming the role, and nothing is written (docs/stations.md, "Roles").
@Suite(.serialized) struct JobRecordRoleTests {
    private func run(_ line: StationLine, as login: String, _ flags: [String], uid: String, folder: JobFolder)
        async throws -> ProvisionProcess.Outcome
    {
        let reader = folder.sim(uid: uid, options: "count=2&timing=datasheet")
        return try await onThread {
            try line.provision(
                ["run", "job.json", "--quiet", "--idle", "20", "--station", "s1", "--reader", reader] + flags,
                as: login, folder: folder)
        }
    }

    @Test func aStationsLoginMayNotAcceptAChangedJobButTheSupervisorsMay() async throws {
        let folder = try JobFolder(rows: 4, lock: false)
        let line = try StationLine.migrated(folder: folder)
        let first = try await run(line, as: line.bench, [], uid: "04510000000001", folder: folder)
        #expect(first.status == 1, "\(first.stderr)")  // 1: rows remain
        let csv = folder.url.appendingPathComponent("rows.csv")
        let handle = try FileHandle(forWritingTo: csv)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("SKU-5,Item 5\n".utf8))
        try handle.close()
        let ledger = "SELECT name, manifest_sha256, records_sha256, total_rows, finished_at FROM jobs"
        let before = try line.server.query(line.admin, ledger)
        let rows = "SELECT count(*) FROM records"
        for flag in ["--accept-new-rows", "--accept-changed-manifest"] {
            let refused = try await run(line, as: line.bench, [flag], uid: "04510000000011", folder: folder)
            #expect(refused.status == 77, "\(flag): \(refused.stderr)")
            #expect(
                refused.stderr.contains("is the supervisor's") && refused.stderr.contains("ledger grant supervisor"),
                "\(flag): \(refused.stderr)")
            #expect(try line.server.query(line.admin, ledger) == before)
            #expect(try line.server.query(line.admin, rows) == [["4"]])
            #expect(try line.server.query(line.admin, "SELECT count(*) FROM events WHERE kind <> 'failed'") == [["0"]])
        }
        // The supervisor's login accepts the appended row (it then may not claim: no station of its own).
        let accepted = try await run(line, as: line.lead, ["--accept-new-rows"], uid: "04510000000021", folder: folder)
        #expect(accepted.status != 0 && accepted.status != 77, "\(accepted.stderr)")
        #expect(try line.server.query(line.admin, rows) == [["5"]])
        #expect(
            try line.server.query(line.admin, "SELECT kind, actor FROM events WHERE kind = 'rowsAppended'") == [
                ["rowsAppended", line.lead]
            ])
        // The station's login runs the job on without a flag, and marks it finished once every row is done.
        let rest = try await run(line, as: line.bench, [], uid: "04510000000031", folder: folder)
        #expect(rest.status == 1, "\(rest.stderr)")
        #expect(try line.server.query(line.admin, "SELECT finished_at IS NULL FROM jobs") == [["t"]])
        let last = try await run(line, as: line.bench, [], uid: "04510000000041", folder: folder)
        #expect(last.status == 0, "\(last.stderr)")
        #expect(try line.server.query(line.admin, "SELECT finished_at IS NULL FROM jobs") == [["f"]])
    }
}
