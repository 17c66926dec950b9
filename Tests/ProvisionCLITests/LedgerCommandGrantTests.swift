import Foundation
import TestSupport
import Testing

/// `provision ledger migrate --role-prefix` and `provision ledger grant`: their usage errors, the roles a migration
/// makes and who may make them, and a grant's bindings, on the throwaway server (docs/stations.md, "Roles").
@Suite(.serialized) struct LedgerCommandGrantTests {
    @Test func usageErrorsExit64BeforeAnyServerIsReached() throws {
        let folder = try JobFolder(rows: 1, lock: false)
        let server = "host=/nonexistent port=5432 user=ledger dbname=provision"
        for (arguments, says) in [
            (["ledger", "grant", "operator", "bench_1"], "unknown role 'operator'"),
            (["ledger", "grant", "station"], "usage: provision ledger grant"),
            (["ledger", "grant", "verifier", "gate_1", "--stations", "s1"], "--stations binds station logins only"),
            (["ledger", "grant", "station", "bench_1", "--stations", "s1,bad name"], "station name 'bad name'"),
            (["ledger", "grant", "station", "bench_1", "--stations", ""], "station name ''"),
            (["ledger", "grant", "station", "bench_1", "--role-prefix", "x"], "--role-prefix does not belong"),
            (["ledger", "migrate", "--role-prefix", "Line-1"], "--role-prefix must be"),
            (["ledger", "migrate", "--stations", "s1"], "--stations does not belong"),
        ] {
            let outcome = try ProvisionProcess.run(arguments + ["--ledger", server], directory: folder.url)
            #expect(outcome.status == 64 && outcome.stderr.contains(says), "\(arguments): \(outcome.stderr)")
        }
        let sqlite = try ProvisionProcess.run(
            ["ledger", "grant", "station", "bench_1", "--ledger", "ledger.sqlite"], directory: folder.url)
        #expect(sqlite.status == 64 && sqlite.stderr.contains("only a server ledger has roles"), "\(sqlite.stderr)")
        let help = try ProvisionProcess.run(["ledger", "--help"], directory: folder.url)
        #expect(
            help.status == 0
                && help.stdout.contains("provision ledger grant station|verifier|supervisor|publisher LOGIN"))
    }

    @Test func migrateWithoutCreateRoleNamesWhatIsMissingAndChangesNothing() throws {
        let folder = try JobFolder(rows: 1, lock: false)
        let server = try PostgresTestServer.shared()
        let admin = try server.createDatabase()
        let database = try #require(admin.split(separator: " ").first { $0.hasPrefix("dbname=") }?.dropFirst(7))
        let owner = "owner_\(database)"
        _ = try server.query(admin, "CREATE ROLE \(owner) LOGIN")
        _ = try server.query(admin, "ALTER DATABASE \(database) OWNER TO \(owner)")
        let conninfo = admin.replacing("user=ledger", with: "user=\(owner)")
        let refused = try ProvisionProcess.run(
            ["ledger", "migrate", "--ledger", conninfo, "--role-prefix", String(database)], directory: folder.url)
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("role \(owner) lacks CREATEROLE")
                && refused.stderr.contains("\(database)_station, \(database)_supervisor, \(database)_verifier"),
            "\(refused.stderr)")
        #expect(try server.query(admin, "SELECT to_regclass('ledger_schema') IS NULL") == [["t"]])
        #expect(try server.query(admin, "SELECT count(*) FROM pg_roles WHERE rolname LIKE '\(database)_%'") == [["0"]])
        // With the groups made by a superuser beforehand, the owner migrates without CREATEROLE: all four of them.
        for group in ["station", "verifier", "supervisor"] {
            _ = try server.query(admin, "CREATE ROLE \(database)_\(group) NOLOGIN")
        }
        let noPublisher = try ProvisionProcess.run(
            ["ledger", "migrate", "--ledger", conninfo, "--role-prefix", String(database)], directory: folder.url)
        #expect(
            noPublisher.status == 77 && noPublisher.stderr.contains("the group role \(database)_publisher needs"),
            "\(noPublisher.stderr)")
        #expect(try server.query(admin, "SELECT to_regclass('ledger_schema') IS NULL") == [["t"]])
        _ = try server.query(admin, "CREATE ROLE \(database)_publisher NOLOGIN")
        let migrated = try ProvisionProcess.run(
            ["ledger", "migrate", "--ledger", conninfo, "--role-prefix", String(database)], directory: folder.url)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try server.query(admin, "SELECT role_prefix FROM ledger_settings") == [[String(database)]])
        // The prefix is the ledger's: another one is refused, none keeps it.
        let other = try ProvisionProcess.run(
            ["ledger", "migrate", "--ledger", conninfo, "--role-prefix", "other"], directory: folder.url)
        #expect(
            other.status == 65 && other.stderr.contains("names its roles with the prefix \(database), not other"),
            "\(other.stderr)")
        let again = try ProvisionProcess.run(["ledger", "migrate", "--ledger", conninfo], directory: folder.url)
        #expect(again.status == 0 && again.stdout.contains("nothing to do"), "\(again.stdout)\(again.stderr)")
    }

    @Test func grantBindsALoginAndRefusesWhatItMayNotDo() throws {
        let folder = try JobFolder(rows: 1, lock: false)
        let line = try StationLine.migrated(folder: folder)
        // A station login is bound to its own name by default, and a new grant replaces its names.
        let login = "solo_\(line.database)"
        let missing = try line.provision(["ledger", "grant", "station", login], as: line.owner, folder: folder)
        #expect(
            missing.status == 64 && missing.stderr.contains("there is no role \(login)")
                && missing.stderr.contains("CREATE ROLE \(login) LOGIN"), "\(missing.stderr)")
        let group = try line.provision(
            ["ledger", "grant", "station", line.verifierGroup], as: line.owner, folder: folder)
        #expect(group.status == 64 && group.stderr.contains("may not log in"), "\(group.stderr)")
        _ = try line.server.query(line.admin, "CREATE ROLE \(login) LOGIN")
        let json = try line.provision(["ledger", "grant", "station", login, "--json"], as: line.owner, folder: folder)
        let document = try JSONContract.check(json, schema: "ledger-grant")
        #expect(document["group"] as? String == line.stationGroup && document["stations"] as? [String] == [login])
        let bound = "SELECT station FROM station_logins WHERE login = '\(login)' ORDER BY station"
        #expect(try line.server.query(line.admin, bound) == [[login]])
        let again = try line.provision(
            ["ledger", "grant", "station", login, "--stations", "s7,s8,s7"], as: line.owner, folder: folder)
        #expect(again.status == 0 && again.stdout.contains("may act as station s7, s8"), "\(again.stdout)")
        #expect(try line.server.query(line.admin, bound) == [["s7"], ["s8"]])
        #expect(
            try line.server.query(line.admin, "SELECT pg_has_role('\(login)', '\(line.stationGroup)', 'MEMBER')")
                == [["t"]])
        // A station login may neither grant itself more nor write its own bindings.
        let escalate = try line.provision(
            ["ledger", "grant", "supervisor", line.bench], as: line.bench, folder: folder)
        #expect(escalate.status == 77, "\(escalate.stderr)")
        let write = try line.sql("INSERT INTO station_logins VALUES ('\(line.bench)', 's2')", as: line.bench)
        #expect(write.status != 0 && write.output.contains("permission denied"), "\(write.output)")
        #expect(
            try line.server.query(line.admin, "SELECT count(*) FROM station_logins WHERE station = 's2'") == [["1"]])
    }
}
