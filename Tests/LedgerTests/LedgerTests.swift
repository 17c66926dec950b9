import Foundation
import Synchronization
import Testing

@testable import Ledger

/// Set by one task, read by another: whether the lock holder has released its lock.
private final class ReleaseFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

@Suite struct LedgerOpenTests {
    @Test func newFileIsMigratedWithWALAndFullSync() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Ledger.open(path: folder.path(), busyTimeout: .milliseconds(1_500))
        let settings = try await ledger.settings()
        #expect(settings.journalMode == "wal")
        #expect(settings.synchronous == 2)
        #expect(settings.foreignKeys)
        #expect(settings.schemaVersion == Ledger.schemaVersion)
        #expect(settings.busyTimeoutMilliseconds == 1_500)
        let tables = try await ledger.rawQuery("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        #expect(
            tables.map { $0.first ?? nil } == [
                "attempts", "events", "job_keys", "jobs", "key_changes", "outbox", "records", "seen_counters",
                "sun_counters",
            ])
        let views = try await ledger.rawQuery("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")
        #expect(views.map { $0.first ?? nil } == ["job_progress", "tags"])
    }

    @Test func sqliteCallsRunOnTheLedgersOwnQueue() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Ledger.open(path: folder.path())
        #expect(try await ledger.sqliteRunsOnOwnQueue())
    }

    @Test func emptyExistingFileIsMigrated() async throws {
        let folder = try TemporaryFolder()
        #expect(FileManager.default.createFile(atPath: folder.path(), contents: Data()))
        let ledger = try await Ledger.open(path: folder.path())
        #expect(try await ledger.settings().schemaVersion == Ledger.schemaVersion)
    }

    @Test func reopeningKeepsDataAndVersion() async throws {
        let folder = try TemporaryFolder()
        do {
            let ledger = try await Sample.ledger(at: folder.path(), rows: 3)
            _ = try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1))
        }
        let again = try await Ledger.open(path: folder.path())
        #expect(try await again.settings().schemaVersion == Ledger.schemaVersion)
        #expect(
            try await again.counts(job: "j")
                == {
                    var c = StateCounts()
                    c.pending = 2
                    c.claimed = 1
                    return c
                }())
        #expect(try await again.job(named: "j")?.totalRows == 3)
        let third = try await Ledger.open(path: folder.path())
        #expect(try await third.rawQuery("SELECT count(*) FROM sqlite_master WHERE type = 'table'") == [["9"]])
    }

    @Test func newerSchemaIsRefused() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Ledger.open(path: folder.path())
        try await ledger.rawExecute("PRAGMA user_version = 99")
        await #expect(throws: LedgerError(.schemaTooNew, "")) { try await Ledger.open(path: folder.path()) }
    }

    @Test func directoryCannotBeOpened() async throws {
        let folder = try TemporaryFolder()
        let error = try await #require(throws: LedgerError.self) { try await Ledger.open(path: folder.url.path) }
        #expect(error.code == .cannotOpen)
        let result = try #require(error.resultCode)
        #expect(SQLiteResultCode.cannotOpen ~= result)
        #expect(error.message.contains(folder.url.path))
    }

    @Test func missingFolderCannotBeOpened() async throws {
        let folder = try TemporaryFolder()
        let error = try await #require(throws: LedgerError.self) {
            try await Ledger.open(path: folder.path("no/such/ledger.sqlite"))
        }
        #expect(error.code == .cannotOpen)
        #expect(error.resultCode.map { SQLiteResultCode.cannotOpen ~= $0 } == true)
    }

    @Test func garbageFileIsNotADatabase() async throws {
        let folder = try TemporaryFolder()
        let junk = Data(String(repeating: "not a database; ", count: 100).utf8)
        #expect(FileManager.default.createFile(atPath: folder.path(), contents: junk))
        let error = try await #require(throws: LedgerError.self) { try await Ledger.open(path: folder.path()) }
        #expect(error.code == .cannotOpen)
        #expect(error.resultCode == .notADatabase)
    }

    @Test func readOnlyOpenRefusesWritesWithReadOnlyCode() async throws {
        let folder = try TemporaryFolder()
        _ = try await Sample.ledger(at: folder.path(), rows: 2)
        let reader = try await Ledger.open(path: folder.path(), readOnly: true)
        #expect(try await reader.counts(job: "j").pending == 2)
        let error = try await #require(throws: LedgerError.self) {
            try await reader.registerJob(name: "k", manifestHash: "m", templateHash: "t")
        }
        #expect(error.code == .readOnly)
        #expect(error.resultCode.map { SQLiteResultCode.readOnly ~= $0 } == true)
    }

    @Test func writerWaitsForBusyTimeoutThenFailsWithBusy() async throws {
        let folder = try TemporaryFolder()
        let holder = try await Ledger.open(path: folder.path())
        let waiter = try await Ledger.open(path: folder.path(), busyTimeout: .milliseconds(300))
        try await holder.rawExecute("BEGIN IMMEDIATE")
        let clock = ContinuousClock()
        let start = clock.now
        let error = try await #require(throws: LedgerError.self) {
            try await waiter.registerJob(name: "j", manifestHash: "m", templateHash: "t")
        }
        let waited = clock.now - start
        try await holder.rawExecute("COMMIT")
        #expect(error.code == .busy)
        #expect(error.resultCode.map { SQLiteResultCode.busy ~= $0 } == true)
        #expect(waited >= .milliseconds(250))
        #expect(waited < .seconds(30))  // a bound against hanging, not a speed check
    }

    @Test func writerSucceedsWhenLockIsReleasedWithinTimeout() async throws {
        let folder = try TemporaryFolder()
        let holder = try await Ledger.open(path: folder.path())
        let waiter = try await Ledger.open(path: folder.path(), busyTimeout: .seconds(60))
        try await holder.rawExecute("BEGIN IMMEDIATE")
        let released = ReleaseFlag()
        let (started, starting) = AsyncStream.makeStream(of: Void.self)
        let release = Task {
            for await _ in started { break }
            // Time for the waiter to block on the lock; the test's verdict does not depend on it.
            try await Task.sleep(for: .milliseconds(300))
            released.set()
            try await holder.rawExecute("COMMIT")
        }
        starting.yield()
        try await waiter.registerJob(name: "j", manifestHash: "m", templateHash: "t")
        // The writer succeeded only once the lock was released, whatever the machine's speed.
        #expect(released.isSet)
        try await release.value
        #expect(try await holder.job(named: "j") != nil)
    }

    @Test func cancellationInterruptsARunningStatement() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Ledger.open(path: folder.path())
        // A statement that runs for many seconds unless interrupted.
        let task = Task {
            try await ledger.rawQuery(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000000000) "
                    + "SELECT count(*) FROM n"
            )
        }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let error = try await #require(throws: LedgerError.self) { try await task.value }
        #expect(error.code == .interrupted)
        #expect(error.resultCode == .interrupt)
        #expect(try await ledger.settings().journalMode == "wal")
    }
}
