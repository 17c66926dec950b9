import Foundation
import TestSupport
import Testing

/// A line of stations on one job through a PostgreSQL ledger, driven as operators would: `ledger migrate`, then
/// `run` at several named stations, `status`, a duplicate station name, a station frozen past its lease
/// (issue 26, "Stations").
@Suite(.serialized) struct StationsTests {
    /// A job folder and a fresh database on the test server.
    private func line(rows: Int) throws -> (JobFolder, String, PostgresTestServer) {
        let server = try PostgresTestServer.shared()
        return (try JobFolder(rows: rows, lock: false), try server.createDatabase(), server)
    }

    private func run(_ folder: JobFolder, _ uri: String, station: String, uid: String, extra: [String] = [])
        async throws -> ProvisionProcess.Outcome
    {
        let arguments =
            ["run", "job.json", "--quiet", "--ledger", uri, "--station", station]
            + ["--reader", folder.sim(uid: uid, options: "timing=datasheet")] + extra
        return try await onThread { try ProvisionProcess.run(arguments, directory: folder.url) }
    }

    @Test func stationsRefuseAnUnmigratedLedgerThenShareOneJobExactlyOnce() async throws {
        let rows = 120
        let (folder, uri, server) = try line(rows: rows)
        let early = try await run(folder, uri, station: "s1", uid: "04510000000001")
        #expect(early.status == 73 && early.stderr.contains("provision ledger migrate"), "\(early.stderr)")
        let migrate = try ProvisionProcess.run(["ledger", "migrate", "--ledger", uri], directory: folder.url)
        #expect(migrate.status == 0 && migrate.stdout.contains("from schema version 0 to"), "\(migrate.stderr)")

        async let first = run(folder, uri, station: "s1", uid: "04510000000001")
        async let second = run(folder, uri, station: "s2", uid: "04520000000001")
        let (a, b) = try await (first, second)
        #expect(a.status == 0, "\(a.stderr)")
        #expect(b.status == 0, "\(b.stderr)")
        #expect(try server.query(uri, "SELECT state, count(*) FROM records GROUP BY state") == [["done", "\(rows)"]])
        #expect(try server.query(uri, "SELECT count(*) - count(DISTINCT uid) FROM records") == [["0"]])
        // Every attempt names its station and its reader, qualified by the station.
        let byStation = try server.query(
            uri, "SELECT station, reader, count(*) FROM attempts WHERE outcome = 'done' GROUP BY 1, 2 ORDER BY 1")
        #expect(byStation.map { $0[0] } == ["s1", "s2"], "both stations did tags: \(byStation)")
        #expect(byStation.map { $0[1] } == ["s1/sim:ntag215", "s2/sim:ntag215"])
        #expect(byStation.map { Int($0[2]) ?? 0 }.reduce(0, +) == rows)

        let status = try ProvisionProcess.run(
            ["status", "--ledger", uri, "--job", folder.job, "--json"], directory: folder.url)
        #expect(status.status == 0, "\(status.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let leases = try #require(document["leases"] as? [[String: Any]])
        #expect(leases.compactMap { $0["station"] as? String } == ["s1", "s2"])
        #expect(leases.allSatisfy { $0["live"] as? Bool == false }, "both stations gave their lease back")
        #expect((document["claims"] as? [Any])?.isEmpty == true)
        #expect(document["done"] as? Int == rows)
    }

    @Test func aSecondLiveProcessWithTheSameStationNameIsRefused() async throws {
        let (folder, uri, server) = try line(rows: 400)
        _ = try ProvisionProcess.run(["ledger", "migrate", "--ledger", uri], directory: folder.url)
        let first = try ProvisionProcess.start(
            [
                "run", "job.json", "--quiet", "--ledger", uri, "--station", "bench-3", "--reader",
                folder.sim(uid: "04510000000001", options: "timing=datasheet"),
            ], directory: folder.url)
        try await waitUntil { try server.query(uri, "SELECT count(*) FROM attempts") != [["0"]] }
        let second = try await run(folder, uri, station: "bench-3", uid: "04520000000001")
        #expect(second.status == 69, "\(second.stderr)")
        #expect(second.stderr.contains("station bench-3 is running elsewhere"), "\(second.stderr)")
        #expect(
            try server.query(uri, "SELECT count(*) FROM attempts WHERE reader LIKE '%sim:ntag215' AND uid LIKE '0452%'")
                == [["0"]], "the refused process touched no tag")
        first.signal(SIGINT)
        let ended = try await first.wait()
        #expect(ended.status == 130, "\(ended.stderr)")
    }

    @Test func aStationFrozenPastItsLeaseStopsWithoutWritingAndItsRowsFinishElsewhere() async throws {
        let rows = 100
        let (folder, uri, server) = try line(rows: rows)
        _ = try ProvisionProcess.run(["ledger", "migrate", "--ledger", uri], directory: folder.url)
        let frozen = try ProvisionProcess.start(
            [
                "run", "job.json", "--quiet", "--ledger", uri, "--station", "s1", "--lease", "1", "--reader",
                folder.sim(uid: "04510000000001", options: "timing=datasheet"),
            ], directory: folder.url)
        try await waitUntil {
            Int(try server.query(uri, "SELECT count(*) FROM attempts").first?.first ?? "0") ?? 0 >= 5
        }
        frozen.signal(SIGSTOP)
        try await waitUntil { frozen.isStopped }
        // Events, not sleeps: the server's clock says the lease ran out. The station's own view of it (counted
        // from before each renewal was sent) ran out no later, and its last statements have long landed.
        try await waitUntil {
            try server.query(uri, "SELECT count(*) FROM stations WHERE name = 's1' AND lease_expires < now()")
                == [["1"]]
        }
        let before = try server.query(uri, "SELECT count(*) FROM attempts WHERE station = 's1'")
        frozen.signal(SIGCONT)
        let outcome = try await frozen.wait()
        #expect(outcome.status == 75, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("lease"), "\(outcome.stderr)")
        let after = Int(try server.query(uri, "SELECT count(*) FROM attempts WHERE station = 's1'")[0][0]) ?? 0
        // At most the tag in the radio at the freeze finishes (its claim was durable); no new tag is claimed.
        #expect(after <= (Int(before[0][0]) ?? 0) + 1, "before \(before), after \(after)")
        // Another station finishes the job, the frozen station's claimed tag included.
        let rest = try await run(folder, uri, station: "s2", uid: "04510000000001")
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(try server.query(uri, "SELECT state, count(*) FROM records GROUP BY state") == [["done", "\(rows)"]])
        #expect(try server.query(uri, "SELECT count(*) - count(DISTINCT uid) FROM records") == [["0"]])
    }

    @Test func droppedLedgerConnectionsPauseTheLineWhichReconnectsAndFinishesExactlyOnce() async throws {
        let rows = 60
        let (folder, uri, server) = try line(rows: rows)
        _ = try ProvisionProcess.run(["ledger", "migrate", "--ledger", uri], directory: folder.url)
        let station = try ProvisionProcess.start(
            [
                "run", "job.json", "--quiet", "--ledger", uri, "--station", "s1", "--reader",
                folder.sim(uid: "04510000000001", options: "timing=datasheet"),
            ], directory: folder.url)
        var drops = 0
        for target in [5, 20, 35] {
            try await waitUntil {
                Int(try server.query(uri, "SELECT count(*) FROM attempts").first?.first ?? "0") ?? 0 >= target
            }
            // The server ends every session of the station: its workers' and its heartbeat's; only in this test's
            // database, since other tests on the shared server have stations named s1 too.
            drops += try server.query(
                uri,
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    + "WHERE application_name = 's1' AND datname = current_database()"
            ).count
        }
        let outcome = try await station.wait()
        #expect(drops >= 3, "sessions ended: \(drops)")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("ledger connection lost"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("ledger back after"), "\(outcome.stderr)")
        #expect(try server.query(uri, "SELECT state, count(*) FROM records GROUP BY state") == [["done", "\(rows)"]])
        #expect(try server.query(uri, "SELECT count(*) - count(DISTINCT uid) FROM records") == [["0"]])
        // Every tag's image holds the message of the row its UID is bound to (none written twice, none lost).
        let done = try server.query(uri, "SELECT count(*) FROM attempts WHERE outcome = 'done'")
        #expect(done == [["\(rows)"]], "one done attempt a row: \(done)")
    }

    @Test func connectionsDroppedAtEveryStepOfTheStartUpAreRiddenOutAndTheJobIsDoneOnce() async throws {
        let rows = 30
        let (folder, uri, server) = try line(rows: rows)
        _ = try ProvisionProcess.run(["ledger", "migrate", "--ledger", uri], directory: folder.url)
        // Registering the job, adding its rows (mid-batch), storing the records' hash (rows committed), marking
        // the job started, taking the station's lease: each drops the station's connection once.
        let drops = [
            ("job", "AFTER INSERT ON jobs FOR EACH ROW"),
            ("rows", "AFTER INSERT ON records FOR EACH ROW WHEN (NEW.row = 17)"),
            ("hash", "AFTER UPDATE OF records_sha256 ON jobs FOR EACH ROW"),
            ("started", "AFTER UPDATE OF started_at ON jobs FOR EACH ROW WHEN (OLD.started_at IS NULL)"),
            ("lease", "AFTER INSERT ON stations FOR EACH ROW"),
        ]
        for (name, event) in drops { try dropConnectionOnce(server, uri, name: name, event) }
        let outcome = try await run(folder, uri, station: "s1", uid: "04510000000001")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        // Each fired for the try that lost its connection, then for the one after the reconnection; the hash is
        // stored a third time because the job is marked started last (the drop there repeats the registration).
        let firings = try drops.map { name, _ in try server.query(uri, "SELECT last_value FROM drop_\(name)") }
        #expect(firings == [["2"], ["2"], ["3"], ["2"], ["2"]].map { [$0] }, "\(firings)")
        let paused = outcome.stderr.components(separatedBy: "; start-up paused, reconnecting").count - 1
        let back = outcome.stderr.components(separatedBy: "; start-up carries on").count - 1
        #expect(paused == drops.count && back == drops.count, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains("terminating connection due to administrator command); start-up paused"),
            "one line a drop: \(outcome.stderr)")
        #expect(try server.query(uri, "SELECT state, count(*) FROM records GROUP BY state") == [["done", "\(rows)"]])
        #expect(try server.query(uri, "SELECT count(*) - count(DISTINCT uid) FROM records") == [["0"]])
        #expect(try server.query(uri, "SELECT count(*) FROM attempts WHERE outcome = 'done'") == [["\(rows)"]])
        #expect(
            try server.query(uri, "SELECT total_rows, records_sha256 IS NOT NULL, started_at IS NOT NULL FROM jobs")
                == [["\(rows)", "t", "t"]])
    }

    @Test func connectionsDroppedAtTheEndOfTheRunAreRiddenOutAndTheRunEndsCleanly() async throws {
        let rows = 30
        let (folder, uri, server) = try line(rows: rows)
        _ = try ProvisionProcess.run(["ledger", "migrate", "--ledger", uri], directory: folder.url)
        // The worker's last timings, giving the lease back, marking the job finished: each drops once.
        let drops = [
            ("timings", "AFTER UPDATE OF ledger_us ON attempts FOR EACH STATEMENT"),
            ("release", "AFTER UPDATE ON stations FOR EACH ROW WHEN (NEW.heartbeat_at = OLD.heartbeat_at)"),
            ("finished", "AFTER UPDATE OF finished_at ON jobs FOR EACH ROW WHEN (NEW.finished_at IS NOT NULL)"),
        ]
        for (name, event) in drops { try dropConnectionOnce(server, uri, name: name, event) }
        let outcome = try await run(folder, uri, station: "s1", uid: "04510000000001")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("error:"), "\(outcome.stderr)")
        // The flush is one call (`provision_late_timings`, one statement for every row): it fired for the dropped try,
        // then once more for the try after the reconnection.
        let firings = try drops.map { name, _ in try server.query(uri, "SELECT last_value FROM drop_\(name)") }
        #expect(firings == [["2"], ["2"], ["2"]].map { [$0] }, "\(firings)")
        #expect(outcome.stderr.contains("s1/sim:ntag215 paused, nothing is written"), "\(outcome.stderr)")
        let paused = outcome.stderr.components(separatedBy: "; end of run paused, reconnecting").count - 1
        #expect(paused == 2 && outcome.stderr.contains("; end of run carries on"), "\(outcome.stderr)")
        #expect(try server.query(uri, "SELECT state, count(*) FROM records GROUP BY state") == [["done", "\(rows)"]])
        #expect(try server.query(uri, "SELECT count(*) FROM attempts WHERE outcome = 'done'") == [["\(rows)"]])
        // The timings the dropped flush carried were stored by the next one.
        #expect(try server.query(uri, "SELECT count(*) FROM attempts WHERE ledger_us IS NULL") == [["0"]])
        #expect(try server.query(uri, "SELECT count(*) FROM stations WHERE lease_expires > now()") == [["0"]])
        #expect(try server.query(uri, "SELECT finished_at IS NOT NULL FROM jobs") == [["t"]])
    }

    @Test func aServerRefusingNewConnectionsAtStartUpPausesTheStationUntilItLetsThemIn() async throws {
        let rows = 20
        let (folder, uri, server) = try line(rows: rows)
        _ = try ProvisionProcess.run(["ledger", "migrate", "--ledger", uri], directory: folder.url)
        // Marking the job started (the last step before the station's own connections) holds for 2 s once, while
        // the test makes the database refuse new connections, as a server restarting does.
        _ = try server.query(
            uri,
            """
            CREATE SEQUENCE hold_started;
            CREATE FUNCTION hold() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF nextval('hold_started') = 1 THEN PERFORM pg_sleep(2); END IF; RETURN NULL; END $$;
            CREATE TRIGGER hold AFTER UPDATE OF started_at ON jobs FOR EACH ROW WHEN (OLD.started_at IS NULL)
                EXECUTE FUNCTION hold();
            """)
        let database = try #require(uri.components(separatedBy: "dbname=").last)
        let admin = server.connInfo(database: "postgres")
        let station = try ProvisionProcess.start(
            [
                "run", "job.json", "--quiet", "--ledger", uri, "--station", "s1",
                "--reader", folder.sim(uid: "04520000000001"), "--reader", folder.sim(uid: "04530000000001"),
            ], directory: folder.url)
        try await waitUntil {
            try server.query(admin, "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep'") == [["1"]]
        }
        _ = try server.query(admin, "ALTER DATABASE \(database) ALLOW_CONNECTIONS false")
        try await Task.sleep(for: .seconds(4))
        _ = try server.query(admin, "ALTER DATABASE \(database) ALLOW_CONNECTIONS true")
        let outcome = try await station.wait()
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains("is not currently accepting connections); start-up paused, reconnecting"),
            "\(outcome.stderr)")
        #expect(outcome.stderr.contains("; start-up carries on"), "\(outcome.stderr)")
        #expect(try server.query(uri, "SELECT state, count(*) FROM records GROUP BY state") == [["done", "\(rows)"]])
        #expect(try server.query(uri, "SELECT count(DISTINCT reader) FROM attempts") == [["2"]], "both readers ran")
    }

    /// Makes the server end the station's own session (`pg_terminate_backend` of its backend) the first time
    /// `event` fires, inside that statement: its transaction rolls back and the station sees a dropped
    /// connection at that exact step. `drop_NAME` counts the firings (a sequence is not rolled back).
    private func dropConnectionOnce(_ server: PostgresTestServer, _ uri: String, name: String, _ event: String) throws {
        _ = try server.query(
            uri,
            """
            CREATE OR REPLACE FUNCTION drop_connection() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF nextval(TG_ARGV[0]::regclass) = 1 THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;
                RETURN NULL;
            END $$;
            CREATE SEQUENCE drop_\(name);
            CREATE TRIGGER drop_\(name) \(event) EXECUTE FUNCTION drop_connection('drop_\(name)');
            """)
    }

    @Test func aConnectionStringWithAPasswordOrABadStationNameIsAUsageErrorThatShowsNoPassword() throws {
        let folder = try JobFolder(rows: 1, lock: false)
        let password = try ProvisionProcess.run(
            ["run", "job.json", "--ledger", "postgresql://line:s3cret@db.local/provision"], directory: folder.url)
        #expect(password.status == 64 && password.stderr.contains("password"), "\(password.stderr)")
        #expect(!password.stderr.contains("s3cret") && !password.stdout.contains("s3cret"))
        let station = try ProvisionProcess.run(["run", "job.json", "--station", "a/b"], directory: folder.url)
        #expect(station.status == 64 && station.stderr.contains("station name 'a/b'"), "\(station.stderr)")
        let migrate = try ProvisionProcess.run(["ledger", "migrate", "job.json"], directory: folder.url)
        #expect(migrate.status == 64 && migrate.stderr.contains("SQLite"), "\(migrate.stderr)")
    }

    /// Polls `condition` every 50 ms for up to 20 s.
    private func waitUntil(_ condition: () throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if try condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the condition did not hold within 20 s")
    }
}
