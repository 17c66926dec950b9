import Foundation
import TestSupport
import Testing

/// A station login claims, commits, gives up claims, takes leases and journals key changes only through the
/// ledger's station functions, and only under its own station names (issue 43 item 1; docs/stations.md, "Who may
/// do what"): each case logs in as a station login and tries it with psql.
@Suite(.serialized) struct StationFunctionsTests {
    /// `sql` as `login`, with psql's verbose errors (they carry the SQLSTATE).
    private func verbose(_ line: StationLine, _ sql: String, as login: String) throws -> (status: Int32, output: String)
    {
        try line.psql(line.conninfo(login), ["-v", "VERBOSITY=verbose", "-At", "-c", sql])
    }

    /// A line whose job ran two tags as `s1` and has six pending rows, and a row claimed by `s1`'s login by hand.
    private func lineWithAClaim(_ folder: JobFolder) async throws -> StationLine {
        let line = try StationLine.migrated(folder: folder)
        let reader = folder.sim(uid: "04510000000001", options: "count=2&timing=datasheet")
        let ran = try await onThread {
            try line.provision(
                ["run", "job.json", "--quiet", "--idle", "20", "--station", "s1", "--reader", reader], as: line.bench,
                folder: folder)
        }
        #expect(ran.status == 1, "\(ran.stderr)")  // 1: rows remain
        let claim = try verbose(
            line,
            "SELECT o_outcome, o_row FROM provision_claim('s1', '\(folder.job)', 's1/hand', '04AA000000000A', "
                + "'2026-01-01T00:00:00.000Z')", as: line.bench)
        #expect(claim.status == 0 && claim.output.contains("claimed|3"), "\(claim.output)")
        return line
    }

    @Test func aStationLoginChangesNoRowLeaseOrAttemptByHand() async throws {
        let folder = try JobFolder(rows: 8, lock: false)
        let line = try await lineWithAClaim(folder)
        let records = "SELECT * FROM records ORDER BY row"
        let before = try line.server.query(line.admin, records)
        let attempts = try line.server.query(line.admin, "SELECT count(*) FROM attempts")
        let leases = try line.server.query(line.admin, "SELECT * FROM stations")
        for (login, sql) in [
            (line.other, "UPDATE records SET claimed_by = 's2/forged' WHERE row = 3"),
            (line.bench, "UPDATE records SET claimed_by = 's1/other' WHERE row = 3"),
            (line.other, "UPDATE records SET state = 'claimed', uid = '04BB000000000B' WHERE state = 'pending'"),
            (line.bench, "UPDATE records SET fields_json = '{}' WHERE state = 'pending'"),
            (
                line.other,
                "INSERT INTO attempts (job, uid, row, reader, outcome, started_at, finished_at) "
                    + "VALUES ('\(folder.job)', "
                    + "'04AA000000000A', 3, 's1/forged', 'done', '2026-01-01', '2026-01-01')"
            ),
            (line.bench, "UPDATE attempts SET ledger_us = 1"),
            (line.other, "INSERT INTO stations (name, instance, lease_expires) VALUES ('s2', 'forged', now())"),
            (line.bench, "UPDATE stations SET instance = 'forged', lease_expires = now() + interval '1 hour'"),
            // The helper the station functions write events with is no login's to call.
            (
                line.bench,
                "SELECT provision_outbox_event('s1', '\(folder.job)', 3, 'done', '2026-01-01', NULL, '{}'::jsonb)"
            ),
            (
                line.bench,
                "INSERT INTO key_changes (job, uid, key_number, old_version, new_version, key_id, old_fingerprint, "
                    + "new_fingerprint, state, intended_at) VALUES ('\(folder.job)', '04AA000000000A', 0, 0, 1, 'k', "
                    + "'v1:a', 'v1:b', 'intended', '2026-01-01')"
            ),
        ] {
            let forged = try verbose(line, sql, as: login)
            #expect(
                forged.status != 0 && forged.output.contains("42501") && forged.output.contains("permission denied"),
                "\(login): \(sql): \(forged.output)")
        }
        #expect(try line.server.query(line.admin, records) == before)
        #expect(try line.server.query(line.admin, "SELECT count(*) FROM attempts") == attempts)
        #expect(try line.server.query(line.admin, "SELECT * FROM stations") == leases)
        #expect(try line.server.query(line.admin, "SELECT count(*) FROM outbox WHERE row = 3") == [["0"]])
    }

    @Test func theFunctionsActOnlyUnderTheLoginsOwnStationNames() async throws {
        let folder = try JobFolder(rows: 8, lock: false)
        let line = try await lineWithAClaim(folder)
        let job = folder.job
        let records = "SELECT * FROM records ORDER BY row"
        let before = try line.server.query(line.admin, records)
        let now = "'2026-01-01T00:00:00.000Z'"
        let done = { (station: String) in
            "SELECT provision_done('on', \(now), 'NTAG215', repeat('0', 64), 40, 1, NULL, \(now), NULL, NULL, 'type2', "
                + "NULL, '\(station)', '\(job)', '04AA000000000A', 3, '\(station)/hand', 'done', NULL, NULL, NULL, "
                + "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, \(now), \(now))"
        }
        for (sql, refusal) in [
            // Under another station's name: the login is not bound to it.
            (
                "SELECT * FROM provision_claim('s1', '\(job)', 's1/forged', '04BB000000000B', \(now))",
                "act as station s1"
            ),
            (done("s1"), "act as station s1"),
            ("SELECT provision_finish_claim('s1', '\(job)', 3, 'pending', \(now), NULL)", "act as station s1"),
            ("SELECT provision_take_lease('s1', 'forged', 3600)", "act as station s1"),
            ("SELECT provision_renew_lease('s1', 'forged', 3600)", "act as station s1"),
            // Under its own name, on s1's claim or with a reader of another station.
            (done("s2"), "not by station s2"),
            ("SELECT provision_finish_claim('s2', '\(job)', 3, 'failed', \(now), NULL)", "not by station s2"),
            ("SELECT * FROM provision_claim('s2', '\(job)', 's1/forged', '04BB000000000B', \(now))", "not station s2"),
        ] {
            let refused = try verbose(line, sql, as: line.other)
            #expect(
                refused.status != 0 && refused.output.contains("42501") && refused.output.contains(refusal),
                "\(sql): \(refused.output)")
        }
        #expect(try line.server.query(line.admin, records) == before)
        // s1's own login commits its claim through the same call, and gives nothing else away.
        let own = try verbose(line, done("s1"), as: line.bench)
        #expect(own.status == 0 && own.output == "t\n", "\(own.output)")
        #expect(
            try line.server.query(line.admin, "SELECT state, uid, claimed_by FROM records WHERE row = 3")
                == [["done", "04AA000000000A", "s1/hand"]])
        #expect(
            try line.server.query(line.admin, "SELECT station, reader FROM attempts WHERE row = 3")
                == [["s1", "s1/hand"]])
        // Its event, in the same call: under the login's station, none for the refused calls.
        #expect(
            try line.server.query(
                line.admin, "SELECT station, outcome, payload::jsonb ->> 'reader' FROM outbox WHERE row = 3")
                == [["s1", "done", "s1/hand"]])
    }

    @Test func aKeyChangeIsResolvedOnlyByItsStation() async throws {
        let folder = try JobFolder(rows: 8, lock: false)
        let line = try await lineWithAClaim(folder)
        let intend =
            "SELECT provision_intend_key_change('s1', '\(folder.job)', '04CC000000000C', 0, 0, 1, 'k', 'v1:a', 'v1:b', "
            + "'2026-01-01T00:00:00.000Z')"
        #expect(try verbose(line, intend, as: line.bench).status == 0)
        let journal = "SELECT station, state FROM key_changes"
        #expect(try line.server.query(line.admin, journal) == [["s1", "intended"]])
        let resolve = { (station: String) in
            "SELECT provision_resolve_key_change('\(station)', '\(folder.job)', '04CC000000000C', 0, 'abandoned', "
                + "'2026-01-01T00:00:01.000Z')"
        }
        for (station, refusal) in [("s2", "is station s1's, not s2"), ("s1", "act as station s1")] {
            let refused = try verbose(line, resolve(station), as: line.other)
            #expect(
                refused.status != 0 && refused.output.contains("42501") && refused.output.contains(refusal),
                "\(station): \(refused.output)")
        }
        #expect(try line.server.query(line.admin, journal) == [["s1", "intended"]])
        let own = try verbose(line, resolve("s1"), as: line.bench)
        #expect(own.status == 0 && own.output == "t\n", "\(own.output)")
        #expect(try line.server.query(line.admin, journal) == [["s1", "abandoned"]])
    }
}
