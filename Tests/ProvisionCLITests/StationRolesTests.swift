import Foundation
import TestSupport
import Testing

/// scripts/pg-roles.sql on a real server (docs/stations.md, "Roles"): a database owned by a migration role,
/// the script's group roles, login roles in them, and `provision` run as each login as a line engineer would.
@Suite(.serialized) struct StationRolesTests {
    /// The roles of one test database; role names are cluster-wide, so each carries the database's name.
    private struct Line {
        let server: PostgresTestServer
        /// The database, and its connection string as the test server's superuser.
        let database: String, admin: String
        var owner: String { "owner_\(database)" }
        var stationGroup: String { "station_\(database)" }
        var supervisorGroup: String { "supervisor_\(database)" }
        var verifierGroup: String { "verifier_\(database)" }
        var bench: String { "bench_\(database)" }
        var lead: String { "lead_\(database)" }
        var gate: String { "gate_\(database)" }

        /// The connection string of `user` (the test server trusts its socket: no password).
        func conninfo(_ user: String) -> String {
            server.connInfo(database: database).replacing("user=ledger", with: "user=\(user)")
        }
    }

    /// A fresh database owned by its own migration role, migrated by that role, with scripts/pg-roles.sql
    /// applied by the superuser and one login role in the station and supervisor groups.
    private func migratedLine(folder: JobFolder) throws -> Line {
        let server = try PostgresTestServer.shared()
        let admin = try server.createDatabase()
        let database = try #require(admin.split(separator: " ").first { $0.hasPrefix("dbname=") }?.dropFirst(7))
        let line = Line(server: server, database: String(database), admin: admin)
        _ = try server.query(admin, "CREATE ROLE \(line.owner) LOGIN")
        _ = try server.query(admin, "ALTER DATABASE \(line.database) OWNER TO \(line.owner)")
        let migrate = try ProvisionProcess.run(
            ["ledger", "migrate", "--ledger", line.conninfo(line.owner)], directory: folder.url)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(
            try server.query(admin, "SELECT tableowner FROM pg_tables WHERE tablename = 'records'") == [[line.owner]])
        for _ in 0..<2 {  // idempotent: a second run changes nothing and does not fail
            let applied = try psql(
                server, admin,
                [
                    "-v", "station=\(line.stationGroup)", "-v", "verifier=\(line.verifierGroup)",
                    "-v", "supervisor=\(line.supervisorGroup)", "-f", Self.script.path,
                ])
            #expect(applied.status == 0, "\(applied.output)")
        }
        _ = try server.query(admin, "CREATE ROLE \(line.bench) LOGIN IN ROLE \(line.stationGroup)")
        _ = try server.query(admin, "CREATE ROLE \(line.lead) LOGIN IN ROLE \(line.supervisorGroup)")
        _ = try server.query(admin, "CREATE ROLE \(line.gate) LOGIN IN ROLE \(line.verifierGroup)")
        return line
    }

    @Test func aStationRunsTheJobButOnlyTheSupervisorReleasesAndReissues() async throws {
        let rows = 12
        let folder = try JobFolder(rows: rows, lock: false)
        let line = try migratedLine(folder: folder)
        let server = line.server

        // The station's login registers the job, claims and records every row.
        let run = try await onThread {
            try ProvisionProcess.run(
                [
                    "run", "job.json", "--quiet", "--ledger", line.conninfo(line.bench), "--station", "s1",
                    "--reader", folder.sim(uid: "04510000000001", options: "timing=datasheet"),
                ], directory: folder.url)
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try server.query(line.admin, "SELECT state, count(*) FROM records GROUP BY state") == [["done", "\(rows)"]])

        // The station may not reissue a done row (the new row's reissue_of column is not granted)…
        let stationReissue = try ProvisionProcess.run(
            ["reissue", "job.json", "--row", "1", "--reason", "test", "--ledger", line.conninfo(line.bench)],
            directory: folder.url)
        #expect(
            stationReissue.status != 0 && stationReissue.stderr.contains("permission denied"),
            "\(stationReissue.stderr)")
        // …the supervisor may: row 1's tag was destroyed, so its data goes out again as a new row.
        let reissue = try ProvisionProcess.run(
            [
                "reissue", "job.json", "--row", "1", "--reason", "crushed", "--by", "lead", "--ledger",
                line.conninfo(line.lead),
            ],
            directory: folder.url)
        #expect(reissue.status == 0, "\(reissue.stderr)")
        let new = rows + 1
        #expect(
            try server.query(line.admin, "SELECT state, reissue_of FROM records WHERE row = \(new)") == [
                ["pending", "1"]
            ])

        // A station claims the new row and dies before its tag is written: the claim stays with the tag's UID.
        _ = try server.query(
            line.admin,
            "UPDATE records SET state = 'claimed', uid = '04DEAD00000001', claimed_by = 's1/sim:ntag215', "
                + "claimed_at = (SELECT claimed_at FROM records WHERE row = 2) WHERE row = \(new)")

        // The station's login can neither release that row through provision nor delete rows directly.
        let stationRelease = try ProvisionProcess.run(
            ["release", "--ledger", line.conninfo(line.bench), "--job", folder.job, "--row", "\(new)"],
            directory: folder.url)
        #expect(stationRelease.status == 73, "\(stationRelease.stderr)")
        #expect(
            stationRelease.stderr.contains("row-level security policy for table \"events\""), "\(stationRelease.stderr)"
        )
        #expect(try server.query(line.admin, "SELECT state FROM records WHERE row = \(new)") == [["claimed"]])
        let delete = try psql(server, line.conninfo(line.bench), ["-c", "DELETE FROM records WHERE row = \(new)"])
        #expect(delete.status != 0 && delete.output.contains("permission denied for table records"), "\(delete.output)")
        let update = try psql(server, line.conninfo(line.bench), ["-c", "UPDATE records SET reissue_of = NULL"])
        #expect(update.status != 0 && update.output.contains("permission denied for table records"), "\(update.output)")

        // The supervisor sees the stranded claim and the station's ended lease…
        let status = try ProvisionProcess.run(
            ["status", "--ledger", line.conninfo(line.lead), "--job", folder.job, "--json"], directory: folder.url)
        #expect(status.status == 0, "\(status.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let claims = try #require(document["claims"] as? [[String: Any]])
        #expect(claims.compactMap { $0["row"] as? Int } == [new], "\(claims)")
        let leases = try #require(document["leases"] as? [[String: Any]])
        #expect(leases.compactMap { $0["station"] as? String } == ["s1"], "\(leases)")
        // …and releases it, recorded as its event.
        let release = try ProvisionProcess.run(
            ["release", "--ledger", line.conninfo(line.lead), "--job", folder.job, "--row", "\(new)", "--by", "lead"],
            directory: folder.url)
        #expect(release.status == 0, "\(release.stderr)")
        #expect(
            try server.query(line.admin, "SELECT state, uid IS NULL FROM records WHERE row = \(new)") == [
                ["pending", "t"]
            ])
        #expect(try server.query(line.admin, "SELECT actor FROM events WHERE kind = 'release'") == [["lead"]])
        // The supervisor's login cannot run a station: it may not claim.
        let supervisorRun = try await onThread {
            try ProvisionProcess.run(
                [
                    "run", "job.json", "--quiet", "--ledger", line.conninfo(line.lead), "--station", "s2",
                    "--reader", folder.sim(uid: "04520000000001", options: "timing=datasheet"),
                ], directory: folder.url)
        }
        #expect(
            supervisorRun.status != 0 && supervisorRun.stderr.contains("permission denied"), "\(supervisorRun.stderr)")
        #expect(try server.query(line.admin, "SELECT state FROM records WHERE row = \(new)") == [["pending"]])
    }

    @Test func aVerifierRecordsTapCountersButChangesNoRow() async throws {
        let job = try AuthTapJob()
        let line = try migratedLine(folder: job.folder)
        let reader = job.folder.sim(uid: "04000000000001", options: "count=2")
        let run = try await onThread {
            try ProvisionProcess.run(
                [
                    "run", "job.json", "--reader", reader, "--quiet", "--idle", "20", "--ledger",
                    line.conninfo(line.bench), "--station", "s1",
                ], directory: job.folder.url, environment: job.env)
        }
        #expect(run.status == 0, "\(run.stderr)")
        let url = try await job.tap(reader: reader).url
        let verify = { (login: String) throws -> ProvisionProcess.Outcome in
            try ProvisionProcess.run(
                ["verify-url", url, "--manifest", "job.json", "--ledger", line.conninfo(login)],
                directory: job.folder.url, environment: job.env)
        }
        let first = try verify(line.gate)
        #expect(first.status == 0 && first.stdout.hasPrefix("valid"), "\(first.stdout)\(first.stderr)")
        let again = try verify(line.gate)
        #expect(again.status == 1 && again.stdout.hasPrefix("replayed"), "\(again.stdout)\(again.stderr)")
        #expect(try line.server.query(line.admin, "SELECT count(*) FROM seen_counters") == [["1"]])
        // A station's login may not record taps; the verifier's may not touch rows.
        let station = try verify(line.bench)
        #expect(station.status != 0 && station.stderr.contains("permission denied"), "\(station.stderr)")
        let update = try psql(line.server, line.conninfo(line.gate), ["-c", "UPDATE records SET state = 'pending'"])
        #expect(update.status != 0 && update.output.contains("permission denied for table records"), "\(update.output)")
        #expect(try line.server.query(line.admin, "SELECT DISTINCT state FROM records") == [["done"]])
    }

    @Test func theScriptRefusesALedgerThatWasNotMigrated() throws {
        let server = try PostgresTestServer.shared()
        let admin = try server.createDatabase()
        let applied = try psql(server, admin, ["-f", Self.script.path])
        #expect(
            applied.status != 0 && applied.output.contains("run provision ledger migrate first"), "\(applied.output)")
    }

    /// scripts/pg-roles.sql in this checkout.
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/pg-roles.sql")

    /// Runs the server's psql on `conninfo` with `arguments`; returns its status and its output (both streams).
    private func psql(_ server: PostgresTestServer, _ conninfo: String, _ arguments: [String]) throws
        -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: server.binaries + "/psql")
        process.arguments = ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", conninfo] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
