import Foundation
import Support

/// The job ledger: one SQLite connection to an ordinary SQLite file, serialised on its own queue.
///
/// Open one `Ledger` per worker; several connections (and several processes) may share a file. Every
/// write that reads then decides (claims) runs in a `BEGIN IMMEDIATE` transaction, so two connections
/// never hand out the same row. The file is in WAL mode with `synchronous=FULL`: an operation that returned
/// has been written durably, except a `markDone(durability: .deferred)`, which is committed (it survives a
/// crash of the process) and becomes durable with the next claim or `sync()` (docs/ledger.md,
/// "Durability"). Cancelling the calling task interrupts the running statement
/// (`sqlite3_interrupt`), which rolls its transaction back and throws `.interrupted`; a task that is
/// already cancelled before the call still runs it. Schema and exactly-once rules: docs/ledger.md.
public actor Ledger: DeferredSyncing {
    /// Settings in effect on this connection, as SQLite reports them.
    public struct Settings: Sendable, Hashable {
        /// `PRAGMA journal_mode` (`wal`).
        public var journalMode: String
        /// `PRAGMA synchronous` (2 = `FULL`).
        public var synchronous: Int
        /// `PRAGMA foreign_keys` (`true` when enforced).
        public var foreignKeys: Bool
        /// `PRAGMA user_version`: the schema version.
        public var schemaVersion: Int
        /// `PRAGMA busy_timeout` in milliseconds.
        public var busyTimeoutMilliseconds: Int
    }

    nonisolated let executor: QueueExecutor
    /// The connection; used only on `executor`'s queue.
    let connection: SQLiteConnection
    /// The ledger file.
    public nonisolated let path: String
    /// The ledger file, for messages (`LedgerStore.location`).
    public nonisolated var location: String { path }
    /// Deferred commits not yet covered by a sync of the WAL, and the ticket a sync finishes for them.
    nonisolated let unsynced = UnsyncedCommits()
    /// Tap verifications waiting for the queue (`DeferredSyncing.acceptTap`).
    nonisolated let taps = QueueBatch<TapRequest, TapAnswer>()
    /// Flushes the WAL off the ledger's queue for `syncInBackground()`.
    nonisolated let walSync: WALSync
    /// The tap lookups read by batches of taps, while they hold (`tapLookupInBatch`).
    var tapLookups = TapLookupCache()

    /// Runs this actor on its own serial queue, so blocking SQLite calls stay off the cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private init(path: String, readOnly: Bool, busyTimeoutMilliseconds: Int32) throws(LedgerError) {
        self.executor = QueueExecutor(label: "ledger \(path)")
        self.connection = try SQLiteConnection(
            path: path, readOnly: readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        self.path = path
        self.walSync = WALSync(ledgerPath: path)
    }

    /// Opens or creates the ledger at `path` and brings its schema up to date.
    ///
    /// The caller creates the folder. Sets WAL, `synchronous=FULL`, `foreign_keys=ON` and the busy timeout,
    /// then runs pending migrations in one `BEGIN IMMEDIATE` transaction (safe when several connections
    /// open a new file at once). Read-only ledgers (for reports and audits) are not migrated and must
    /// already be at the current version.
    ///
    /// - Parameters:
    ///   - path: the file; created if missing (unless `readOnly`).
    ///   - readOnly: open with `SQLITE_OPEN_READONLY`; writes then fail with `.readOnly`.
    ///   - busyTimeout: how long a statement waits for another connection's lock before failing `.busy`.
    /// - Returns: the open ledger (one connection).
    /// - Throws: `.cannotOpen` (missing folder, a directory, not a database), `.readOnly` (the file is
    ///   write-protected and `readOnly` is false), `.schemaTooNew`, `.schemaTooOld` (a read-only open of an
    ///   older file), `.busy`; all carry SQLite's result code.
    public static func open(
        path: String, readOnly: Bool = false, busyTimeout: Duration = .seconds(5)
    ) async throws(LedgerError) -> Ledger {
        let milliseconds = busyTimeout.wholeMilliseconds
        let ledger = try Ledger(
            path: path, readOnly: readOnly, busyTimeoutMilliseconds: Int32(clamping: milliseconds))
        try await ledger.prepare(readOnly: readOnly)
        return ledger
    }

    /// Applies connection settings and migrations.
    private func prepare(readOnly: Bool) throws(LedgerError) {
        do throws(LedgerError) {
            if readOnly {
                try connection.execute("PRAGMA foreign_keys = ON")
                try checkVersion()
                return
            }
            guard !connection.isReadOnly else {
                throw LedgerError(
                    .readOnly, "ledger \(path) is read-only: check the file's permissions, or open it read-only",
                    resultCode: .readOnly)
            }
            let mode = try connection.queryFirst("PRAGMA journal_mode = WAL") { $0.text(0) }
            guard mode?.lowercased() == "wal" else {
                throw LedgerError(.sqlite, "ledger \(path) cannot use WAL (journal mode \(mode ?? "none"))")
            }
            try connection.execute("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON")
            try migrate()
        } catch {
            guard error.code == .sqlite || error.code == .cannotOpen, let result = error.resultCode else { throw error }
            switch result {
            case .cannotOpen, .notADatabase, .ioError, .permission:
                throw LedgerError(
                    .cannotOpen, "cannot open ledger \(path): \(error.message)", resultCode: result, sql: error.sql)
            default: throw error
            }
        }
    }

    /// Reads the settings in effect.
    public func settings() throws(LedgerError) -> Settings {
        func value(_ pragma: String) throws(LedgerError) -> String {
            try connection.queryFirst("PRAGMA \(pragma)") { $0.text(0) } ?? ""
        }
        return Settings(
            journalMode: try value("journal_mode"), synchronous: Int(try value("synchronous")) ?? -1,
            foreignKeys: try value("foreign_keys") == "1", schemaVersion: Int(try value("user_version")) ?? -1,
            busyTimeoutMilliseconds: Int(try value("busy_timeout")) ?? -1)
    }

    /// Runs `body` on this connection with task cancellation routed to `sqlite3_interrupt`.
    func perform<T>(_ body: () throws(LedgerError) -> T) async throws(LedgerError) -> T {
        let interrupt = connection.interruptHandle
        // The operation captures `self`, so it stays isolated to this actor (and runs on its queue).
        let result: Result<T, LedgerError> = await withTaskCancellationHandler { [self] in
            assert(executor.isCurrent, "SQLite calls must run on the ledger's own queue")
            do throws(LedgerError) { return .success(try body()) } catch { return .failure(error) }
        } onCancel: {
            interrupt.interrupt()
        }
        return try result.get()
    }

    /// Runs `body` in a transaction on the ledger's queue (`SQLLedger.write` routes cancellation to
    /// `sqlite3_interrupt`).
    ///
    /// A `.deferred` commit runs with `synchronous=NORMAL` (the setting goes back to `FULL` right after) and
    /// is counted (when it wrote something) until a synced commit that wrote something, `sync()` or
    /// `syncInBackground()` makes it durable.
    func transactionNow<T>(
        _ mode: TransactionMode, durability: Durability, _ body: () throws(LedgerError) -> T
    ) throws(LedgerError) -> T {
        guard durability == .deferred else {
            let before = connection.totalChanges
            let value = try connection.transaction(mode, body)
            // A synced commit that wrote pages synced the whole WAL, earlier unsynced commits included.
            if connection.totalChanges != before { unsynced.synced(.success(())) }
            return value
        }
        try connection.setSynchronous(.normal)
        let before = connection.totalChanges
        let outcome: Result<T, LedgerError>
        do throws(LedgerError) { outcome = .success(try connection.transaction(mode, body)) } catch {
            outcome = .failure(error)
        }
        // Back to FULL before anything else commits; if that fails, nothing may claim on this connection.
        try connection.setSynchronous(.full)
        let value = try outcome.get()
        if connection.totalChanges != before { unsynced.committed() }
        return value
    }

    /// Whether this connection has its WAL open, so `sync()` reaches the file (for tests).
    var journalIsOpen: Bool { connection.journalIsOpen }

    /// A file never disconnects: nothing to do.
    public func reconnect() async throws(LedgerError) {}

    /// Syncs the WAL (`DeferredSyncing`, on the ledger's queue).
    func flushDeferredCommits() throws(LedgerError) {
        try connection.syncJournal()
    }
}
