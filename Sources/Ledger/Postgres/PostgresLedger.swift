import Foundation
import Support

/// The job ledger on a PostgreSQL server, for a line of stations working through one job: one libpq
/// connection, serialised on its own queue.
///
/// The operations are the SQLite ledger's (`SQLLedger`); what differs is how stations are kept apart: a claim
/// picks its row `FOR UPDATE SKIP LOCKED`, a read-then-write locks its row `FOR UPDATE`, and unique indexes
/// make a row done at most once and a UID live on at most one row (docs/stations.md). A claim and a done commit
/// are one call each of the ledger's station functions (`PostgresStationFunctions`), one round trip. Every commit
/// is durable when it returns (`synchronous_commit`), except a `markDone(durability: .deferred)`, committed with
/// `synchronous_commit = off` and made durable by the next claim's commit or `sync()` (the server flushes its WAL
/// in order), as the SQLite store's deferred commit is (docs/ledger.md, "Durability").
/// The schema is migrated only by `migrate(conninfo:)` (`provision ledger migrate`); `open` refuses a schema
/// older or newer than this build's. Cancelling the calling task cancels the running statement (`PQcancel`).
public actor PostgresLedger: DeferredSyncing {
    let executor: QueueExecutor
    /// The connection; used only on `executor`'s queue.
    let connection: PostgresConnection
    /// The connection string without its password.
    public nonisolated let location: String
    /// The station this connection records its attempts as (`application_name`).
    public nonisolated let station: String
    /// Deferred done commits not yet covered by a synchronous commit, and the ticket that finishes for them.
    nonisolated let unsynced = UnsyncedCommits()
    /// Tap verifications waiting for the queue (`DeferredSyncing.acceptTap`).
    nonisolated let taps = QueueBatch<TapRequest, TapAnswer>()

    /// Runs this actor on its own serial queue, so blocking libpq calls stay off the cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private init(conninfo: PostgresConnInfo, station: String) throws(LedgerError) {
        self.executor = QueueExecutor(label: "ledger \(conninfo.redacted)")
        self.connection = try PostgresConnection(
            conninfo: conninfo.text, applicationName: station, location: conninfo.redacted)
        self.location = conninfo.redacted
        self.station = station
    }

    /// Connects to the ledger and checks its schema is the one this build knows.
    ///
    /// - Parameters:
    ///   - conninfo: a libpq connection string or `postgresql://` URI without a password (passwords come from
    ///     `PGPASSWORD` or `~/.pgpass`).
    ///   - station: the name the station's attempts are recorded under.
    /// - Throws: `.cannotOpen` (no server, refused login, a password in `conninfo`), `.schemaTooOld` (no schema
    ///   or an older one: run `provision ledger migrate`), `.schemaTooNew`.
    public static func open(conninfo: String, station: String) async throws(LedgerError) -> PostgresLedger {
        let ledger = try PostgresLedger(conninfo: try PostgresConnInfo(conninfo), station: station)
        try await ledger.prepare()
        return ledger
    }

    /// Checks the schema version on the ledger's queue.
    private func prepare() async throws(LedgerError) {
        try await perform { () throws(LedgerError) in try checkVersion() }
    }

    /// Runs `body` on this connection with task cancellation routed to `PQcancel`.
    func perform<T>(_ body: () throws(LedgerError) -> T) async throws(LedgerError) -> T {
        let cancel = connection.cancelHandle
        let result: Result<T, LedgerError> = await withTaskCancellationHandler { [self] in
            assert(executor.isCurrent, "libpq calls must run on the ledger's own queue")
            do throws(LedgerError) { return .success(try body()) } catch { return .failure(error) }
        } onCancel: {
            cancel.interrupt()
        }
        return try result.get()
    }

    /// Runs `body` in one transaction on the ledger's queue, durable when it returns; a `.deferred` one is committed
    /// with `synchronous_commit = off` (set in the `BEGIN`'s round trip, for that transaction only) and counted until
    /// a flush (`sync()`, `syncInBackground()`) or a claim covers it. The server cannot say without another round
    /// trip whether a transaction wrote, so a deferred one is counted, and a synchronous one is counted as a sync,
    /// either way.
    func transactionNow<T>(_ mode: TransactionMode, durability: Durability, _ body: () throws(LedgerError) -> T)
        throws(LedgerError) -> T
    {
        guard durability == .deferred else {
            let value = try connection.transaction(mode, body)
            unsynced.synchronousCommit()
            return value
        }
        let value = try connection.transaction(mode, begin: "BEGIN; SET LOCAL synchronous_commit = off", body)
        unsynced.committed()
        return value
    }

    /// Connects again after the connection dropped and checks the schema once more (the server may have
    /// been restored meanwhile). Not routed to `PQcancel`: the old cancel object goes with the old connection.
    ///
    /// A deferred done commit not yet flushed when the connection dropped may be gone with a server that crashed:
    /// its ticket fails (the line then never tells that row's outcome), and the next claim starts afresh.
    ///
    /// - Throws: `.disconnected` while the server cannot be reached; `.schemaTooOld`/`.schemaTooNew`.
    public func reconnect() async throws(LedgerError) {
        if unsynced.count > 0 {
            unsynced.synced(
                .failure(
                    LedgerError(
                        .disconnected,
                        "the connection to ledger \(location) dropped before the last done commit was flushed: a "
                            + "server crash may have undone it (the tag's row then stays claimed by its UID)")))
        }
        try connection.reset()
        try checkVersion()
    }

    /// Flushes the WAL through one synchronous commit of a transaction that takes a transaction id, which covers
    /// every earlier commit (`DeferredSyncing`, on the ledger's queue).
    func flushDeferredCommits() throws(LedgerError) {
        try connection.execute("SELECT pg_current_xact_id()")
    }

    /// Runs a query with bound text values and returns every row as text (`nil` for `NULL`), for tests
    /// and diagnostics: fixed SQL only.
    func rawQuery(_ sql: String, _ values: [String] = []) async throws(LedgerError) -> [[String?]] {
        try await perform { () throws(LedgerError) in
            try connection.query(sql, values.map { .text($0) }) { row in
                (0..<row.columnCount).map { row.optionalText($0) }
            }
        }
    }
}
