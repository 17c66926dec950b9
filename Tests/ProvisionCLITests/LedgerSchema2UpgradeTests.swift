import Foundation
import Ledger
import TestSupport
import Testing

/// `provision ledger migrate` upgrades a PostgreSQL ledger of schema version 2, written by the release before it
/// (a committed dump, made once by scripts/make_pg_schema2_dump.py with that release's binary, so no old build
/// runs here): every row of every table is kept and the schema reaches this build's version.
@Suite struct LedgerSchema2UpgradeTests {
    static let dump = Fixtures.url("ledger-dumps/postgresql-schema2.sql").path
    static let tables = [
        "jobs", "records", "attempts", "events", "key_changes", "seen_counters", "stations", "sun_counters",
    ]

    /// Each table's columns, in order, as the ledger has them now.
    static func columns(_ server: PostgresTestServer, _ conninfo: String) throws -> [String: String] {
        try Dictionary(
            uniqueKeysWithValues: tables.map { table in
                let names = try server.query(
                    conninfo,
                    "SELECT string_agg(column_name, ', ' ORDER BY ordinal_position) FROM information_schema.columns "
                        + "WHERE table_schema = current_schema() AND table_name = '\(table)'")
                return (table, names.first?.first ?? "*")
            })
    }

    /// Each table's rows in `columns` (the columns schema version 2 had), sorted, as psql prints them.
    static func contents(
        _ server: PostgresTestServer, _ conninfo: String, columns: [String: String]
    ) throws -> [String: [[String]]] {
        try Dictionary(
            uniqueKeysWithValues: tables.map { table in
                let rows = try server.query(conninfo, "SELECT \(columns[table] ?? "*") FROM \(table)")
                return (table, rows.sorted { $0.description < $1.description })
            })
    }

    @Test func aSchema2LedgerOfThePreviousReleaseMigratesKeepingEveryRow() async throws {
        let server = try PostgresTestServer.shared()
        let conninfo = try server.createDatabase()
        try server.restore(conninfo, from: Self.dump)
        #expect(try server.query(conninfo, "SELECT version FROM ledger_schema") == [["2"]])
        let columns = try Self.columns(server, conninfo)
        let before = try Self.contents(server, conninfo, columns: columns)
        #expect(before["records"]?.count ?? 0 > 0 && before["key_changes"]?.count ?? 0 > 0, "the dump holds a job")

        let folder = try Fixtures.temporaryDirectory("schema2")
        let migrate = try await onThread {
            try ProvisionProcess.run(["ledger", "migrate", "--ledger", conninfo], directory: folder)
        }
        #expect(migrate.status == 0, "\(migrate.stdout)\(migrate.stderr)")
        #expect(
            try server.query(conninfo, "SELECT version FROM ledger_schema") == [["\(PostgresLedger.schemaVersion)"]])
        #expect(
            try Self.contents(server, conninfo, columns: columns) == before, "no row of the old ledger changed or went")
        // A key change journalled before schema 5 names no station (only a station holding the tag's claim, or the
        // owner, resolves it).
        #expect(try server.query(conninfo, "SELECT count(*) FROM key_changes WHERE station IS NOT NULL") == [["0"]])
        // The key journal's fingerprints of the scheme before v1 are kept as they were written.
        let fingerprints = try server.query(conninfo, "SELECT DISTINCT new_fingerprint FROM key_changes")
        #expect(fingerprints.allSatisfy { !$0[0].hasPrefix("v1:") && $0[0].count == 16 }, "\(fingerprints)")

        let again = try await onThread {
            try ProvisionProcess.run(["ledger", "migrate", "--ledger", conninfo], directory: folder)
        }
        #expect(again.status == 0, "a second migrate has nothing to do: \(again.stderr)")
    }
}
