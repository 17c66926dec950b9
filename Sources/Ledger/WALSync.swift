import Dispatch
import Foundation
import Glibc
import Support
import Synchronization

/// SQLite's background sync (`Ledger.syncInBackground()`), run off the ledger's queue: reads and commits go on while
/// the WAL is flushed, and a commit made meanwhile waits for the next flush (group commit). A flush covers the
/// commits counted when it started (`UnsyncedCommits` generations): their WAL frames were written before they were
/// counted, and `fdatasync` makes every byte written before it durable, whichever descriptor of the file it goes
/// through (docs/ledger.md, "Durability").
///
/// The first flush goes through SQLite's own WAL sync on the ledger's queue (it also syncs the folder of a WAL it
/// created); later ones through a read-only descriptor of the WAL file (SQLite's `-wal` naming) opened for the
/// flush, so nothing of SQLite's is touched from another thread. SQLite keeps that file (not deleted, only rewritten or
/// truncated in place) while the ledger's connection is open.
final class WALSync: Sendable {
    private let queue: DispatchQueue
    private let walPath: String
    /// A flush went through SQLite once (which syncs the folder of a WAL it created); used on `queue` only.
    private let throughSQLite = Atomic<Bool>(false)

    init(ledgerPath: String) {
        walPath = ledgerPath + "-wal"
        queue = DispatchQueue(label: "ledger sync \(ledgerPath)")
    }

    /// Flushes on this object's queue the commits `commits` counts when the flush starts, then finishes `ticket`
    /// (and every ticket of those commits). `viaSQLite` syncs through SQLite's own WAL method on the ledger's queue:
    /// the first flush, and every one while the WAL cannot be opened by name (its folder removed under a running
    /// ledger).
    func start(
        _ commits: UnsyncedCommits, ticket: DurabilityTicket,
        viaSQLite: @escaping @Sendable () -> Result<Void, LedgerError>
    ) {
        queue.async { [self] in
            commits.syncStarting()
            let through = commits.generation
            let clock = ContinuousClock()
            let begin = clock.now
            // Nothing waits: no flush, and none counted (as `syncNow`).
            guard commits.count > 0 else { return ticket.complete(.success(()), duration: clock.now - begin) }
            let outcome = flush(viaSQLite)
            commits.synced(outcome, through: through)
            ticket.complete(outcome, duration: clock.now - begin)
        }
    }

    /// `fdatasync` of the WAL (what SQLite's WAL sync does on Linux) through a descriptor opened for it, after a
    /// first flush through SQLite; through SQLite again while the file cannot be opened by name. The descriptor is
    /// closed at once: a process holding many ledgers keeps none for each (`select()` users in the same process,
    /// which C libraries still are, abort on a descriptor past 1023).
    private func flush(_ viaSQLite: () -> Result<Void, LedgerError>) -> Result<Void, LedgerError> {
        guard throughSQLite.load(ordering: .relaxed) else {
            let outcome = viaSQLite()
            if case .success = outcome { throughSQLite.store(true, ordering: .relaxed) }
            return outcome
        }
        let wal = open(walPath, O_RDONLY | O_CLOEXEC)
        guard wal >= 0 else { return viaSQLite() }
        defer { close(wal) }
        guard fdatasync(wal) == 0 else { return .failure(failure("cannot sync")) }
        return .success(())
    }

    private func failure(_ what: String) -> LedgerError {
        LedgerError(.sqlite, "\(what) the ledger's WAL \(walPath): \(String(cString: strerror(errno)))")
    }
}

extension Ledger {
    /// Starts a sync of every commit made so far off the ledger's queue (`WALSync`) and returns at once: the ticket
    /// finishes when they are durable. A sync queued and not yet started is shared: it covers the caller's commits
    /// too.
    public nonisolated func syncInBackground() -> DurabilityTicket {
        unsynced.queueSync { ticket in
            walSync.start(unsynced, ticket: ticket) { [self] in
                executor.sync {
                    assumeIsolated { ledger in Result { () throws(LedgerError) in try ledger.flushDeferredCommits() } }
                }
            }
        }
    }
}

extension Ledger {
    /// Moves this connection's WAL checkpoints off its queue (`PRAGMA wal_autocheckpoint = 0`): a second connection
    /// to the file copies the WAL into the database every `interval` with `PRAGMA wal_checkpoint(PASSIVE)`, which
    /// waits for no reader or writer, until this ledger is gone. For a service whose answers must not wait out a
    /// checkpoint on the queue they commit on (`serve`: a checkpoint copies hundreds of pages and syncs the
    /// database, milliseconds during which no tap could be read or recorded).
    public func checkpointInBackground(every interval: Duration = .milliseconds(250)) async throws(LedgerError) {
        let checkpointer = try await Ledger.open(path: path)
        try connection.execute("PRAGMA wal_autocheckpoint = 0")
        // A timer on a dispatch queue, not a task: a cooperative pool kept busy elsewhere cannot hold checkpoints back.
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let milliseconds = max(1, Int(interval.wholeMilliseconds))
        timer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds))
        timer.setEventHandler { [weak self] in
            guard self != nil else { return timer.cancel() }
            checkpointer.executor.sync { checkpointer.assumeIsolated { try? $0.checkpointPassive() } }
        }
        timer.resume()
    }

    /// The WAL pages after which this connection's commit checkpoints (`PRAGMA wal_autocheckpoint`; 0: never).
    func autocheckpointPages() throws(LedgerError) -> Int {
        try connection.queryFirst("PRAGMA wal_autocheckpoint") { $0.int(0) } ?? -1
    }

    /// `PRAGMA wal_checkpoint(PASSIVE)`: copies what it can of the WAL into the database, waiting for nobody.
    func checkpointPassive() throws(LedgerError) {
        _ = try connection.queryFirst("PRAGMA wal_checkpoint(PASSIVE)") { $0.int(0) }
    }
}
