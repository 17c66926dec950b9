import Foundation
import Support
import TestSupport
import Testing

@testable import Ledger

/// Job key bindings (SQLite schema 9, PostgreSQL 3, `job_keys`): a job's first start records each key id's
/// fingerprint, a later start adds ids it lacks, and another fingerprint for a recorded id is a conflict that
/// records nothing, in both stores.
@Suite struct LedgerJobKeysTests {
    static let a = "v1:00112233AABBCCDD"
    static let b = "v1:FFEEDDCC99887766"

    @Test(arguments: StoreKind.allCases)
    func theFirstBindingIsRecordedAndTheSameKeysPassAgain(kind: StoreKind) async throws {
        let store = try await Sample.store(kind, rows: 2)
        let ledger = store.ledger
        #expect(try await ledger.bindKeys(job: "j", keys: ["m": Self.a, "mac": Self.b]).isEmpty)
        #expect(try await ledger.keyBindings(job: "j") == ["m": Self.a, "mac": Self.b])
        // Another connection (a resumed run, another station) with the same keys: accepted, nothing added.
        let other = try await store.another()
        #expect(try await other.bindKeys(job: "j", keys: ["m": Self.a, "mac": Self.b]).isEmpty)
        #expect(try await other.keyBindingConflicts(job: "j", keys: ["m": Self.a]).isEmpty)
        #expect(try await store.rawQuery("SELECT count(*) FROM job_keys") == [["2"]])
        // Bindings are per job: another job may use another key under the same id.
        #expect(try await ledger.bindKeys(job: "k", keys: ["m": Self.b]).isEmpty)
        #expect(try await ledger.keyBindings(job: "j") == ["m": Self.a, "mac": Self.b])
        #expect(try await ledger.keyBindings(job: "k") == ["m": Self.b])
    }

    @Test(arguments: StoreKind.allCases)
    func anotherFingerprintForARecordedIdIsAConflictAndNothingIsRecorded(kind: StoreKind) async throws {
        let store = try await Sample.store(kind, rows: 2)
        let ledger = store.ledger
        #expect(try await ledger.bindKeys(job: "j", keys: ["m": Self.a]).isEmpty)
        let before = try await store.rawQuery("SELECT job, key_id, fingerprint, recorded_at FROM job_keys")
        // A new id beside a changed one: the conflict is named, and the new id is not recorded either.
        let conflicts = try await ledger.bindKeys(job: "j", keys: ["m": Self.b, "extra": Self.a])
        #expect(conflicts == [KeyBindingConflict(keyID: "m", recorded: Self.a, presented: Self.b)])
        #expect(try await store.rawQuery("SELECT job, key_id, fingerprint, recorded_at FROM job_keys") == before)
        #expect(
            try await ledger.keyBindingConflicts(job: "j", keys: ["m": Self.b, "extra": Self.a]) == [
                KeyBindingConflict(keyID: "m", recorded: Self.a, presented: Self.b)
            ])
        // A key id the job never recorded is no conflict for a check, and a later start records it.
        #expect(try await ledger.keyBindingConflicts(job: "j", keys: ["extra": Self.b]).isEmpty)
        #expect(try await ledger.bindKeys(job: "j", keys: ["m": Self.a, "extra": Self.b]).isEmpty)
        #expect(try await ledger.keyBindings(job: "j") == ["m": Self.a, "extra": Self.b])
    }

    @Test(arguments: StoreKind.allCases)
    func aJobWithoutKeysRecordsNothing(kind: StoreKind) async throws {
        let store = try await Sample.store(kind, rows: 1)
        #expect(try await store.ledger.bindKeys(job: "j", keys: [:]).isEmpty)
        #expect(try await store.ledger.keyBindings(job: "j").isEmpty)
        #expect(try await store.rawQuery("SELECT count(*) FROM job_keys") == [["0"]])
    }

    /// A version-8 file (a job started before bindings existed, its rows done) gains the empty table on open; its
    /// first start under this build records the keys without complaint.
    @Test func aVersionEightLedgerGainsTheTableAndRecordsAtItsNextStart() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path()
        do {
            let connection = try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: 1000)
            try connection.execute("PRAGMA journal_mode = WAL")
            for migration in Ledger.migrations.prefix(8) { try connection.execute(migration) }
            try connection.execute(
                """
                PRAGMA user_version = 8;
                INSERT INTO jobs(name, manifest_sha256, template_sha256, total_rows, created_at, started_at)
                    VALUES ('j', 'm', 't', 1, '2026-12-01T08:00:00.000Z', '2026-12-01T08:00:00.000Z');
                INSERT INTO records(job, row, fields_json, message_sha256, message_length, state, uid, created_at,
                                    key_id, key_fingerprint)
                    VALUES ('j', 1, '{}', '', 0, 'done', '04A1B200000001', '2026-12-01T08:00:00.000Z', 'm',
                            '0123456789ABCDEF');
                """)
        }
        #expect(try SQLiteShell.query(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'job_keys'") == [["0"]])
        let ledger = try await Ledger.open(path: path)
        #expect(try await ledger.settings().schemaVersion == Ledger.schemaVersion)
        let columns = try SQLiteShell.query(path, "SELECT name FROM pragma_table_info('job_keys')").map { $0[0] }
        #expect(columns == ["job", "key_id", "fingerprint", "recorded_at"])
        #expect(try await ledger.keyBindings(job: "j").isEmpty)
        #expect(try await ledger.keyBindingConflicts(job: "j", keys: ["m": Self.a]).isEmpty)
        #expect(try await ledger.bindKeys(job: "j", keys: ["m": Self.a]).isEmpty)
        #expect(try await ledger.keyBindings(job: "j") == ["m": Self.a])
        #expect(try await ledger.counts(job: "j").done == 1)
    }

    /// A PostgreSQL database at version 2 (before bindings) is brought to 3 by `migrate`, its data kept.
    @Test func aVersionTwoServerGainsTheTableOnMigrate() async throws {
        let conninfo = try PostgresTestServer.shared().createDatabase()
        let connection = try PostgresConnection(conninfo: conninfo, applicationName: "test", location: conninfo)
        for version in 0..<2 {
            try connection.execute(PostgresLedger.migrations[version])
            try connection.run("UPDATE ledger_schema SET version = ?", [.int(version + 1)])
        }
        try connection.execute(
            """
            INSERT INTO jobs(name, manifest_sha256, template_sha256, total_rows, created_at)
                VALUES ('j', 'm', 't', 0, '2026-12-01T08:00:00.000Z')
            """)
        #expect(try PostgresTestServer.shared().query(conninfo, "SELECT to_regclass('job_keys') IS NULL") == [["t"]])
        let (from, to) = try await PostgresLedger.migrate(conninfo: conninfo)
        #expect(from == 2 && to == PostgresLedger.schemaVersion && to >= 3)
        let ledger = try await PostgresLedger.open(conninfo: conninfo, station: "s1")
        #expect(try await ledger.job(named: "j") != nil)
        #expect(try await ledger.bindKeys(job: "j", keys: ["m": Self.a]).isEmpty)
        #expect(try await ledger.keyBindings(job: "j") == ["m": Self.a])
    }
}
