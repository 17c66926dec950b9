import Foundation
import TestSupport
import Testing

@testable import Ledger

/// Every schema version each store builds, and every upgrade path, gives the schema recorded in
/// Tests/Fixtures/ledger-schema/ (captured from the migrations as they were written per store), so existing
/// ledgers still open and migrate. `PROVISION_RECORD_SCHEMA=1` rewrites the fixtures (only for a new version).
@Suite struct SchemaMigrationsTests {
    @Test func sqliteBuildsEveryVersionAsRecorded() throws {
        var dumps: [Int: String] = [:]
        for version in 1...Ledger.schemaVersion {
            let folder = try TemporaryFolder()
            let connection = try SQLiteConnection(
                path: folder.path(), readOnly: false, busyTimeoutMilliseconds: 5_000)
            try Self.sqliteMigrate(connection, from: 0, to: version)
            dumps[version] = try Self.sqliteDump(connection)
        }
        try Self.compare(dumps, fixture: "sqlite.txt")
    }

    /// A file at every older version, opened by this build, is migrated to the current schema.
    @Test func sqliteUpgradesEveryVersionToTheCurrentOne() async throws {
        let current = try Self.fixture("sqlite.txt")[Ledger.schemaVersion]
        for version in 0..<Ledger.schemaVersion {
            let folder = try TemporaryFolder()
            do {
                let connection = try SQLiteConnection(
                    path: folder.path(), readOnly: false, busyTimeoutMilliseconds: 5_000)
                try Self.sqliteMigrate(connection, from: 0, to: version)
            }
            _ = try await Ledger.open(path: folder.path())
            let connection = try SQLiteConnection(path: folder.path(), readOnly: true, busyTimeoutMilliseconds: 5_000)
            #expect(try Self.sqliteDump(connection) == current, "upgrade from version \(version)")
        }
    }

    @Test func postgresBuildsEveryVersionAsRecorded() throws {
        var dumps: [Int: String] = [:]
        for version in 1...PostgresLedger.schemaVersion {
            let connection = try Self.postgresConnection(try PostgresTestServer.shared().createDatabase())
            try Self.postgresMigrate(connection, from: 0, to: version)
            dumps[version] = try Self.postgresDump(connection)
        }
        try Self.compare(dumps, fixture: "postgresql.txt")
    }

    /// A database at every older version, migrated by this build, has the current schema.
    @Test func postgresUpgradesEveryVersionToTheCurrentOne() async throws {
        let current = try Self.fixture("postgresql.txt")[PostgresLedger.schemaVersion]
        for version in 0..<PostgresLedger.schemaVersion {
            let conninfo = try PostgresTestServer.shared().createDatabase()
            try Self.postgresMigrate(Self.postgresConnection(conninfo), from: 0, to: version)
            let (from, to) = try await PostgresLedger.migrate(conninfo: conninfo)
            #expect(from == version && to == PostgresLedger.schemaVersion)
            #expect(try Self.postgresDump(Self.postgresConnection(conninfo)) == current, "upgrade from \(version)")
        }
    }

    // MARK: - Building a version

    /// Applies SQLite's schema steps `from..<to` as `Ledger.migrate` does, stopping at version `to`.
    static func sqliteMigrate(_ connection: SQLiteConnection, from: Int, to: Int) throws {
        for version in from..<to {
            try connection.execute(Ledger.migrations[version])
            try connection.execute("PRAGMA user_version = \(version + 1)")
        }
    }

    /// Applies PostgreSQL's schema steps `from..<to` as `PostgresLedger.migrate` does, stopping at version `to`.
    static func postgresMigrate(_ connection: PostgresConnection, from: Int, to: Int) throws {
        for version in from..<to {
            try connection.execute(PostgresLedger.migrations[version])
            try connection.run("UPDATE ledger_schema SET version = ?", [.int(version + 1)])
        }
    }

    static func postgresConnection(_ conninfo: String) throws -> PostgresConnection {
        try PostgresConnection(conninfo: conninfo, applicationName: "schema test", location: conninfo)
    }

    // MARK: - Dumping a schema

    /// `sqlite_master` (the statements as stored, white space collapsed) and `user_version`.
    static func sqliteDump(_ connection: SQLiteConnection) throws -> String {
        let objects = try connection.query(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name", []
        ) { row in
            [row.text(0), row.text(1), row.text(2), collapse(row.optionalText(3) ?? "-")].joined(separator: " | ")
        }
        let version = try connection.queryFirst("PRAGMA user_version", []) { $0.int(0) } ?? -1
        return (["user_version \(version)"] + objects).joined(separator: "\n")
    }

    /// The catalog's own rendering of every column, constraint, index, view, trigger and function, and the version.
    static func postgresDump(_ connection: PostgresConnection) throws -> String {
        let sections = [
            """
            SELECT table_name, ordinal_position, column_name, data_type, is_nullable, coalesce(column_default, '-'),
                   is_identity, coalesce(identity_generation, '-')
            FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY 1, 2
            """,
            """
            SELECT conrelid::regclass::text, conname, contype::text, pg_get_constraintdef(oid) FROM pg_constraint
            WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2
            """,
            "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1, 2",
            "SELECT viewname, definition FROM pg_views WHERE schemaname = current_schema() ORDER BY 1",
            """
            SELECT tgrelid::regclass::text, tgname, pg_get_triggerdef(oid) FROM pg_trigger
            WHERE NOT tgisinternal ORDER BY 1, 2
            """,
            """
            SELECT proname, pg_get_functiondef(oid) FROM pg_proc
            WHERE pronamespace = current_schema()::regnamespace ORDER BY 1
            """,
            "SELECT 'version', version::text FROM ledger_schema",
        ]
        var lines: [String] = []
        for sql in sections {
            lines += try connection.query(sql, []) { row in
                (0..<row.columnCount).map { collapse(row.optionalText($0) ?? "-") }.joined(separator: " | ")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }

    // MARK: - Fixtures

    static func url(_ name: String) -> URL { Fixtures.url("ledger-schema/" + name) }

    /// The recorded dumps by version (sections `## version N`).
    static func fixture(_ name: String) throws -> [Int: String] {
        var dumps: [Int: String] = [:]
        let text = try String(contentsOf: url(name), encoding: .utf8)
        for section in text.components(separatedBy: "## version ").dropFirst() {
            let lines = section.split(separator: "\n", omittingEmptySubsequences: false)
            guard let version = Int(lines[0]) else { continue }
            dumps[version] = lines.dropFirst().joined(separator: "\n").trimmingCharacters(in: .newlines)
        }
        return dumps
    }

    static func compare(_ dumps: [Int: String], fixture name: String) throws {
        if ProcessInfo.processInfo.environment["PROVISION_RECORD_SCHEMA"] == "1" {
            let text = dumps.keys.sorted().map { "## version \($0)\n\(dumps[$0] ?? "")\n" }.joined(separator: "\n")
            try text.write(to: url(name), atomically: true, encoding: .utf8)
        }
        let recorded = try fixture(name)
        #expect(recorded.keys.sorted() == dumps.keys.sorted())
        for (version, dump) in dumps.sorted(by: { $0.key < $1.key }) {
            #expect(dump == recorded[version], "\(name) version \(version)")
        }
    }
}
