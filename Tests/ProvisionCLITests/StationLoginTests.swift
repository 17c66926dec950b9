import Foundation
import TestSupport
import Testing

/// What the server refuses a station login whatever it sends (issue 43, item 1; docs/stations.md, "Who may do
/// what"), and that `provision run` as that login still works: each case logs in as the login and tries it.
@Suite(.serialized) struct StationLoginTests {
    /// Runs `provision run` on `folder`'s job as `login`, station `station`, presenting `count` tags from `uid` on.
    private func run(
        _ line: StationLine, as login: String, station: String, uid: String, count: Int, folder: JobFolder,
        faults: String = ""
    ) async throws -> ProvisionProcess.Outcome {
        let reader = folder.sim(uid: uid, options: "count=\(count)&timing=datasheet" + faults)
        return try await onThread {
            try line.provision(
                ["run", "job.json", "--quiet", "--idle", "20", "--station", station, "--reader", reader], as: login,
                folder: folder)
        }
    }

    /// `sql` as `login`, with psql's verbose errors (they carry the SQLSTATE).
    private func verbose(_ line: StationLine, _ sql: String, as login: String) throws -> (status: Int32, output: String)
    {
        try line.psql(line.conninfo(login), ["-v", "VERBOSITY=verbose", "-c", sql])
    }

    @Test func aDoneRowIsImmutableForEveryRoleButTheOwner() async throws {
        let folder = try JobFolder(rows: 4, lock: false)
        let line = try StationLine.migrated(folder: folder)
        let ran = try await run(line, as: line.bench, station: "s1", uid: "04510000000001", count: 4, folder: folder)
        #expect(ran.status == 0, "\(ran.stderr)")
        let before = try line.server.query(line.admin, "SELECT * FROM records ORDER BY row")
        #expect(try line.server.query(line.admin, "SELECT DISTINCT state FROM records") == [["done"]])
        // A station login has no UPDATE on records at all (it claims and commits through functions); the supervisor
        // has UPDATE for release and reissue, and the trigger keeps a done row from it.
        let stationRefusal = "permission denied for table records"
        let trigger = "is done: only the ledger's owner may change it"
        for (login, assignment, refusal) in [
            (line.bench, "key_fingerprint = 'v1:forged'", stationRefusal),
            (line.bench, "claimed_by = 's2/forged'", stationRefusal),
            (line.bench, "bytes_sha256 = repeat('0', 64)", stationRefusal),
            (line.bench, "written_at = '2000-01-01T00:00:00Z'", stationRefusal),
            (line.bench, "key_id = 'forged'", stationRefusal), (line.other, "claimed_by = 's2/forged'", stationRefusal),
            (line.lead, "claimed_by = 'lead'", trigger), (line.lead, "uid = '04FFFFFFFFFFFF'", trigger),
        ] {
            let forged = try verbose(line, "UPDATE records SET \(assignment) WHERE row = 1", as: login)
            #expect(
                forged.status != 0 && forged.output.contains("42501") && forged.output.contains(refusal),
                "\(login): \(assignment): \(forged.output)")
        }
        #expect(try line.server.query(line.admin, "SELECT * FROM records ORDER BY row") == before)
        // The owner may (a repair by hand); the trigger is about who, not what.
        let owner = try verbose(line, "UPDATE records SET signature_status = 'repaired' WHERE row = 1", as: line.owner)
        #expect(owner.status == 0, "\(owner.output)")
    }

    @Test func aStationLoginKeepsItsOwnLeaseAndCannotTakeAnothers() async throws {
        let folder = try JobFolder(rows: 8, lock: false)
        let line = try StationLine.migrated(folder: folder)
        let first = try await run(line, as: line.bench, station: "s1", uid: "04510000000001", count: 4, folder: folder)
        #expect(first.status == 1 && first.stderr.isEmpty, "\(first.stderr)")  // 1: rows remain
        let lease = "SELECT instance, lease_expires FROM stations WHERE name = 's1'"
        let held = try line.server.query(line.admin, lease)
        // s2's login has no direct INSERT or UPDATE on leases: it takes and renews its own through functions.
        let update = try verbose(
            line,
            "UPDATE stations SET instance = 'forged', lease_expires = now() + interval '1 hour' WHERE name = 's1'",
            as: line.other)
        #expect(
            update.status != 0 && update.output.contains("42501")
                && update.output.contains("permission denied for table stations"), "\(update.output)")
        #expect(try line.server.query(line.admin, lease) == held)
        let upsert = try verbose(
            line,
            "INSERT INTO stations (name, instance, lease_expires) VALUES ('s1', 'forged', now() + interval '1 hour') "
                + "ON CONFLICT (name) DO UPDATE SET instance = EXCLUDED.instance, "
                + "lease_expires = EXCLUDED.lease_expires",
            as: line.other)
        #expect(
            upsert.status != 0 && upsert.output.contains("42501")
                && upsert.output.contains("permission denied for table stations"), "\(upsert.output)")
        #expect(try line.server.query(line.admin, lease) == held)
        // provision run as s2's login under s1's name is refused by the server; under its own name it works.
        let posing = try await run(line, as: line.other, station: "s1", uid: "04520000000001", count: 4, folder: folder)
        #expect(posing.status != 0 && posing.stderr.contains("may not act as station s1"), "\(posing.stderr)")
        let own = try await run(line, as: line.other, station: "s2", uid: "04530000000001", count: 4, folder: folder)
        #expect(own.status == 0, "\(own.stderr)")
        #expect(
            try line.server.query(
                line.admin,
                "SELECT split_part(claimed_by, '/', 1), count(*) FROM records GROUP BY 1 "
                    + "ORDER BY 1") == [["s1", "4"], ["s2", "4"]])
    }

    @Test func eventsGoInOnlyUnderTheLoginsOwnStationNames() async throws {
        let folder = try JobFolder(rows: 2, lock: false)
        let line = try StationLine.migrated(folder: folder)
        let torn = try await run(
            line, as: line.bench, station: "s1", uid: "04510000000001", count: 1, folder: folder,
            faults: "&faults=nak5:1")
        // Every WRITE fails: the row goes back to pending (onFailure reuse) with its event, which the run's login
        // may record, and which names its station (the server fills the actor in from the connection).
        #expect(torn.status == 1, "\(torn.stderr)")
        #expect(try line.server.query(line.admin, "SELECT kind, actor FROM events") == [["returnToPending", "s1"]])
        let insert = { (actor: String) in
            "INSERT INTO events (job, kind, actor, at) VALUES ('\(folder.job)', 'failed', \(actor), '2026-01-01')"
        }
        for (login, actor) in [(line.bench, "'s2'"), (line.other, "'s1'"), (line.bench, "NULL")] {
            let forged = try verbose(line, insert(actor), as: login)
            #expect(
                forged.status != 0 && forged.output.contains("42501")
                    && forged.output.contains("row-level security policy for table \"events\""),
                "\(login) as \(actor): \(forged.output)")
        }
        let own = try verbose(line, insert("'s1'"), as: line.bench)
        #expect(own.status == 0, "\(own.output)")
        let named = try line.psql(line.conninfo(line.bench) + " application_name=s1", ["-c", insert("NULL")])
        #expect(named.status == 0, "\(named.output)")
        #expect(try line.server.query(line.admin, "SELECT count(*) FROM events WHERE actor = 's2'") == [["0"]])
    }

    @Test func theKeyJournalOnlyMovesForward() async throws {
        let folder = try RunNTAG424Tests.folder(rows: 2)
        let line = try StationLine.migrated(folder: folder)
        let reader = folder.sim("ntag424", uid: "04C40000000001", options: "count=2")
        let ran = try await onThread {
            try ProvisionProcess.run(
                [
                    "run", "job.json", "--quiet", "--station", "s1", "--reader", reader, "--ledger",
                    line.conninfo(line.bench),
                ],
                directory: folder.url, environment: RunNTAG424Tests.environment)
        }
        // The station's login journals and resolves every key change of its run.
        #expect(ran.status == 0, "\(ran.stderr)")
        let journal = "SELECT state, count(*) FROM key_changes GROUP BY state"
        let resolved = try line.server.query(line.admin, journal)
        #expect(resolved.count == 1 && resolved.first?.first == "done", "\(resolved)")
        let columns = "job, uid, key_number, old_version, new_version, key_id, old_fingerprint, new_fingerprint"
        for (login, sql) in [
            (line.bench, "UPDATE key_changes SET state = 'abandoned' WHERE state = 'done'"),
            (line.other, "UPDATE key_changes SET state = 'intended', resolved_at = NULL"),
            (
                line.bench,
                "INSERT INTO key_changes (\(columns), state, intended_at, resolved_at) SELECT \(columns), 'done', "
                    + "intended_at, resolved_at FROM key_changes LIMIT 1"
            ),
        ] {
            let forged = try verbose(line, sql, as: login)
            #expect(forged.status != 0 && forged.output.contains("42501"), "\(login): \(sql): \(forged.output)")
        }
        #expect(try line.server.query(line.admin, journal) == resolved)
    }
}
