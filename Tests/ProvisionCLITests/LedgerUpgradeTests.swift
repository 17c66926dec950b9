import Foundation
import TestSupport
import Testing

@testable import Ledger
@testable import ProvisionCLI

/// A ledger an older `provision` wrote (schema version 2), met first by a read-only command.
@Suite(.serialized) struct LedgerUpgradeTests {
    /// Rewrites the job's ledger as schema version 2 with the same data: the version-2 schema from its
    /// own migrations, then every row, tag, attempt and event copied over from the current file.
    static func downgradeToVersionTwo(_ folder: JobFolder) throws {
        let path = folder.ledger.path
        let old = path + ".v2"
        do {
            let connection = try SQLiteConnection(path: old, readOnly: false, busyTimeoutMilliseconds: 1000)
            try connection.execute("PRAGMA journal_mode = WAL")
            try connection.execute(Ledger.migrations[0] + Ledger.migrations[1] + "PRAGMA user_version = 2;")
            try connection.execute(
                """
                ATTACH '\(path)' AS current;
                INSERT INTO jobs SELECT name, manifest_sha256, template_sha256, total_rows, created_at, started_at,
                    finished_at FROM current.jobs;
                INSERT INTO records(job, row, fields_json, message_sha256, message_length, state, uid, claimed_by,
                                    attempts, created_at, claimed_at, finished_at)
                    SELECT job, row, fields_json, message_sha256, message_length, state, uid, claimed_by, attempts,
                           created_at, claimed_at, finished_at FROM current.records;
                INSERT INTO tags SELECT uid, chip, job, row, bytes_sha256, byte_count, locked, signature_status,
                    written_at, recorded_at, key_id, key_fingerprint FROM current.tags;
                INSERT INTO attempts SELECT * FROM current.attempts;
                INSERT INTO events SELECT * FROM current.events;
                DETACH current;
                PRAGMA wal_checkpoint(TRUNCATE);
                """)
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.moveItem(atPath: old, toPath: path)
        try? FileManager.default.removeItem(atPath: old + "-wal")
        try? FileManager.default.removeItem(atPath: old + "-shm")
    }

    /// `provision run` of the job on `tags` simulated tags (the same UIDs each time, from 04…01).
    static func run(_ folder: JobFolder, tags: Int) throws -> ProvisionProcess.Outcome {
        try ProvisionProcess.run(
            [
                "run", "job.json", "--reader", folder.sim(uid: "04000000000001", options: "count=\(tags)"), "--quiet",
                "--idle", "1",
            ], directory: folder.url)
    }

    /// `provision report` on a version-2 ledger upgrades it (saying so on stderr) and writes the very
    /// reports the run wrote before the downgrade; the ledger is then at the current version.
    @Test func reportUpgradesAnOlderLedgerAndRegeneratesTheSameReports() throws {
        let folder = try JobFolder(rows: 4)
        let run = try Self.run(folder, tags: 3)
        #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
        let names = ["summary.json", "tags.csv", "failures.csv"]
        let before = try names.map { try Data(contentsOf: folder.reports.appendingPathComponent($0)) }
        try Self.downgradeToVersionTwo(folder)
        #expect(try Ledger.storedSchemaVersion(path: folder.ledger.path) == 2)
        #expect(try folder.query("SELECT count(*) FROM tags") == [["3"]])

        let report = try ProvisionProcess.run(["report", "job.json"], directory: folder.url)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stderr.contains("upgraded the ledger"), "\(report.stderr)")
        #expect(report.stderr.contains("from schema version 2 to \(Ledger.schemaVersion)"), "\(report.stderr)")
        #expect(try Ledger.storedSchemaVersion(path: folder.ledger.path) == Ledger.schemaVersion)
        let after = try names.map { try Data(contentsOf: folder.reports.appendingPathComponent($0)) }
        #expect(before == after)
        // Once upgraded, a read-only open says nothing more.
        let again = try ProvisionProcess.run(["report", "job.json"], directory: folder.url)
        #expect(again.status == 0 && !again.stderr.contains("upgraded"), "\(again.stderr)")
    }

    /// `provision run` continues a job on a version-2 ledger: it says it upgraded the ledger, keeps the
    /// done rows done (their tags are refused as already provisioned) and finishes the rest.
    @Test func runContinuesAJobOnAnOlderLedger() throws {
        let folder = try JobFolder(rows: 5)
        let first = try Self.run(folder, tags: 2)
        #expect(first.status == 0 || first.status == 1, "\(first.stderr)")
        try Self.downgradeToVersionTwo(folder)
        let rest = try Self.run(folder, tags: 5)
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(rest.stderr.contains("upgraded the ledger"), "\(rest.stderr)")
        #expect(try Ledger.storedSchemaVersion(path: folder.ledger.path) == Ledger.schemaVersion)
        #expect(try folder.query("SELECT state, count(*) FROM records GROUP BY state") == [["done", "5"]])
        #expect(try folder.query("SELECT count(DISTINCT uid), count(*) FROM tags") == [["5", "5"]])
        #expect(try folder.query("SELECT count(*) FROM attempts WHERE outcome = 'skipped'") == [["2"]])
    }

    /// A read-only open of an older file that cannot be written is refused with exit 73, naming both
    /// versions and what to do (root ignores file modes, so the mapping is checked directly).
    @Test func anOlderLedgerThatCannotBeWrittenIsRefusedWithWhatToDo() {
        let error = JobContext.cliError(
            LedgerError(
                .schemaTooOld,
                "ledger /x/ledger.sqlite has schema version 2, older than 4 (a read-only open does not "
                    + "upgrade it)"))
        #expect(error.exitCode == .cannotCreate)
        #expect(error.message.contains("schema version 2, older than 4"))
        #expect(error.message.contains("writable copy"))
    }
}
