import Foundation
import TestSupport
import Testing

/// `provision ledger copy` end to end (issue 26, "Moving up"): a job started on one station's SQLite ledger is
/// copied to a migrated server and finished there by a named station, every row done once.
@Suite(.serialized) struct LedgerCopyCommandTests {
    /// Runs `provision` in `folder`.
    private func provision(_ folder: JobFolder, _ arguments: [String]) async throws -> ProvisionProcess.Outcome {
        try await onThread { try ProvisionProcess.run(arguments, directory: folder.url) }
    }

    @Test func aJobStartedOnSQLiteIsCopiedThenFinishedOnTheServerExactlyOnce() async throws {
        let rows = 12
        let folder = try JobFolder(rows: rows, lock: false)
        let server = try PostgresTestServer.shared()
        let uri = try server.createDatabase()
        let part = try await provision(
            folder, ["run", "job.json", "--quiet", "--reader", folder.sim(uid: "04510000000001", options: "count=5")])
        #expect(part.status == 1, "rows remain: \(part.stderr)")
        // The station stopped with a tag in the field: row 6 is claimed by the UID the server's station sees first.
        _ = try folder.query(
            "UPDATE records SET state = 'claimed', uid = '04520000000001', claimed_by = 'sim:ntag215', "
                + "claimed_at = '2026-12-06T10:00:00.000Z' WHERE row = 6")
        let sqliteDone = try folder.query("SELECT row, uid FROM records WHERE state = 'done' ORDER BY row")
        #expect(sqliteDone.count == 5)

        let copyArguments = ["ledger", "copy", "--from", "reports/t/ledger.sqlite", "--to", uri]
        let early = try await provision(folder, copyArguments)
        #expect(early.status == 73 && early.stderr.contains("provision ledger migrate"), "\(early.stderr)")
        #expect(!early.stderr.contains("not writable"), "a server is migrated, not a file upgraded: \(early.stderr)")
        let migrate = try await provision(folder, ["ledger", "migrate", "--ledger", uri])
        #expect(migrate.status == 0, "\(migrate.stderr)")

        let copy = try await provision(folder, copyArguments + ["--json"])
        #expect(copy.status == 0, "\(copy.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(copy.stdout.utf8)) as? [String: Any])
        #expect(document["version"] as? Int == 2 && document["verified"] as? Bool == true)
        let jobs = try #require(document["jobs"] as? [[String: Any]])
        #expect(jobs.count == 1 && jobs.first?["job"] as? String == "t")
        #expect(jobs.first?["rows"] as? Int == rows && jobs.first?["attempts"] as? Int == 5, "\(jobs)")
        let keys = Set(try #require(jobs.first).keys)
        #expect(keys == ["job", "rows", "attempts", "events", "key_changes", "sun_counters", "counters"])
        #expect(copy.stderr.contains("note: job t has 1 claimed row"), "\(copy.stderr)")
        #expect(try server.query(uri, "SELECT DISTINCT station FROM attempts") == [["copied"]])

        let twice = try await provision(folder, copyArguments)
        #expect(twice.status == 65 && twice.stderr.contains("already has job t"), "\(twice.stderr)")

        let rest = try await provision(
            folder,
            [
                "run", "job.json", "--quiet", "--ledger", uri, "--station", "s1", "--reader",
                folder.sim(uid: "04520000000001"),
            ])
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(try server.query(uri, "SELECT state, count(*) FROM records GROUP BY state") == [["done", "\(rows)"]])
        #expect(try server.query(uri, "SELECT count(*) - count(DISTINCT uid) FROM records") == [["0"]])
        // The rows SQLite did keep their tags; the claimed row was finished by the tag that held it.
        let serverDone = try server.query(uri, "SELECT row, uid FROM records WHERE row <= 5 ORDER BY row")
        #expect(serverDone == sqliteDone)
        #expect(try server.query(uri, "SELECT uid FROM records WHERE row = 6") == [["04520000000001"]])
        #expect(
            try server.query(uri, "SELECT station, count(*) FROM attempts WHERE outcome = 'done' GROUP BY 1 ORDER BY 1")
                == [["copied", "5"], ["s1", "\(rows - 5)"]])
    }

    @Test func aUIDTheServerDidInAnotherJobRefusesTheCopyAndWritesNothing() async throws {
        let server = try PostgresTestServer.shared()
        let uri = try server.createDatabase()
        let station = try JobFolder(rows: 3, lock: false)
        let other = try JobFolder(job: "u", rows: 3, lock: false)
        #expect(try await provision(other, ["ledger", "migrate", "--ledger", uri]).status == 0)
        // The same tags (same UIDs) were done in job u on the server and in job t on the station.
        let serverRun = try await provision(
            other,
            [
                "run", "job.json", "--quiet", "--ledger", uri, "--station", "s1", "--reader",
                other.sim(uid: "04510000000001", options: "count=2"),
            ])
        #expect(serverRun.status == 1, "\(serverRun.stderr)")
        let stationRun = try await provision(
            station, ["run", "job.json", "--quiet", "--reader", station.sim(uid: "04510000000001", options: "count=1")])
        #expect(stationRun.status == 1, "\(stationRun.stderr)")
        let copy = try await provision(station, ["ledger", "copy", "--from", "reports/t/ledger.sqlite", "--to", uri])
        #expect(copy.status == 65, "\(copy.stderr)")
        #expect(copy.stderr.contains("UID 04510000000001") && copy.stderr.contains("job u"), "\(copy.stderr)")
        #expect(try server.query(uri, "SELECT count(*) FROM jobs WHERE name = 't'") == [["0"]])
        #expect(try server.query(uri, "SELECT count(*) FROM records WHERE job = 't'") == [["0"]])
    }

    @Test func textOutputSaysWhatWasCopiedAndThatItVerified() async throws {
        let folder = try JobFolder(rows: 4, lock: false)
        let server = try PostgresTestServer.shared()
        let uri = try server.createDatabase()
        _ = try await provision(folder, ["run", "job.json", "--quiet", "--reader", folder.sim(uid: "04510000000001")])
        #expect(try await provision(folder, ["ledger", "migrate", "--ledger", uri]).status == 0)
        let copy = try await provision(
            folder, ["ledger", "copy", "--from", "reports/t/ledger.sqlite", "--to", uri, "--job", "t"])
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(copy.stdout.contains("job t: 4 rows, 4 attempts, 0 events"), "\(copy.stdout)")
        #expect(copy.stdout.contains("copied 1 job (4 rows, 4 attempts, 0 events)"), "\(copy.stdout)")
        #expect(copy.stdout.contains("verified row by row"), "\(copy.stdout)")
        #expect(!copy.stderr.contains("claimed"), "no claimed row, no note: \(copy.stderr)")
        let unknown = try await provision(
            folder, ["ledger", "copy", "--from", "reports/t/ledger.sqlite", "--to", uri, "--job", "nope"])
        #expect(unknown.status == 65 && unknown.stderr.contains("job nope"), "\(unknown.stderr)")
    }

    @Test func usageErrorsNameTheOption() async throws {
        let folder = try JobFolder(rows: 1, lock: false)
        let uri = "postgresql://line@db.local/provision"
        let cases: [([String], String)] = [
            (["ledger", "copy", "--from", "reports/t/ledger.sqlite"], "--to"),
            (["ledger", "copy", "--to", uri], "--from"),
            (["ledger", "copy", "--from", "reports", "--to", uri], "--from"),
            (["ledger", "copy", "--from", "missing.sqlite", "--to", uri], "--from"),
            (["ledger", "copy", "--from", uri, "--to", uri], "--from"),
            (["ledger", "copy", "--from", "l.sqlite", "--to", "other.sqlite"], "--to"),
            (["ledger", "copy", "--from", "l.sqlite", "--to", "postgresql://line:s3cret@db.local/p"], "--to"),
            (["ledger", "migrate", "--ledger", uri, "--from", "l.sqlite"], "--from"),
            (["ledger", "frobnicate"], "migrate, grant, copy"),
        ]
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("reports"), withIntermediateDirectories: true)
        for (arguments, named) in cases {
            let outcome = try await provision(folder, arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(
                outcome.stderr.hasPrefix("error:") && outcome.stderr.contains(named), "\(arguments): \(outcome.stderr)")
            #expect(!outcome.stderr.contains("s3cret") && !outcome.stdout.contains("s3cret"))
        }
    }
}
