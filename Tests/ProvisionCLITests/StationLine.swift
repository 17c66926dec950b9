import Foundation
import TestSupport
import Testing

/// A line's PostgreSQL ledger with least-privilege logins, as an engineer sets one up (docs/stations.md, "Roles"):
/// a database owned by a migration role with CREATEROLE, migrated by that role with the database's name as
/// `--role-prefix` (roles are cluster-wide), and one login per role bound with `provision ledger grant`.
struct StationLine {
    let server: PostgresTestServer
    /// The database, and its connection string as the test server's superuser.
    let database: String, admin: String
    var owner: String { "owner_\(database)" }
    var stationGroup: String { "\(database)_station" }
    var supervisorGroup: String { "\(database)_supervisor" }
    var verifierGroup: String { "\(database)_verifier" }
    var publisherGroup: String { "\(database)_publisher" }
    /// A station login bound to station `s1`; `other` is bound to `s2`.
    var bench: String { "bench_\(database)" }
    var other: String { "other_\(database)" }
    var lead: String { "lead_\(database)" }
    var gate: String { "gate_\(database)" }
    /// A publisher's login: reads the outbox and marks events published.
    var publisher: String { "pub_\(database)" }

    /// The connection string of `user` (the test server trusts its socket: no password).
    func conninfo(_ user: String) -> String {
        server.connInfo(database: database).replacing("user=ledger", with: "user=\(user)")
    }

    /// A fresh, migrated line with its logins created by the superuser and bound by the owner.
    static func migrated(folder: JobFolder) throws -> StationLine {
        let server = try PostgresTestServer.shared()
        let admin = try server.createDatabase()
        let database = try #require(admin.split(separator: " ").first { $0.hasPrefix("dbname=") }?.dropFirst(7))
        let line = StationLine(server: server, database: String(database), admin: admin)
        _ = try server.query(admin, "CREATE ROLE \(line.owner) LOGIN CREATEROLE")
        _ = try server.query(admin, "ALTER DATABASE \(line.database) OWNER TO \(line.owner)")
        for _ in 0..<2 {  // idempotent: a second run changes nothing and does not fail
            let migrate = try ProvisionProcess.run(
                ["ledger", "migrate", "--ledger", line.conninfo(line.owner), "--role-prefix", line.database],
                directory: folder.url)
            #expect(migrate.status == 0, "\(migrate.stderr)")
        }
        #expect(
            try server.query(admin, "SELECT tableowner FROM pg_tables WHERE tablename = 'records'") == [[line.owner]])
        for login in [line.bench, line.other, line.lead, line.gate, line.publisher] {
            _ = try server.query(admin, "CREATE ROLE \(login) LOGIN")
        }
        for (role, login, stations) in [
            ("station", line.bench, ["--stations", "s1"]), ("station", line.other, ["--stations", "s2"]),
            ("supervisor", line.lead, []), ("verifier", line.gate, []), ("publisher", line.publisher, []),
        ] {
            let grant = try line.provision(["ledger", "grant", role, login] + stations, as: line.owner, folder: folder)
            #expect(grant.status == 0, "\(grant.stderr)")
        }
        return line
    }

    /// Runs `provision arguments --ledger <login's conninfo>` in `folder`.
    func provision(_ arguments: [String], as login: String, folder: JobFolder) throws -> ProvisionProcess.Outcome {
        try ProvisionProcess.run(arguments + ["--ledger", conninfo(login)], directory: folder.url)
    }

    /// Runs the server's psql on `conninfo` with `arguments`; returns its status and its output (both streams).
    func psql(_ conninfo: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
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

    /// Runs `sql` as `login` with psql.
    func sql(_ sql: String, as login: String) throws -> (status: Int32, output: String) {
        try psql(conninfo(login), ["-c", sql])
    }
}
