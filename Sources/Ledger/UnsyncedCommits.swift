import Synchronization

/// A connection's deferred commits that no sync has covered yet, and the one ticket that finishes when a sync
/// does: what `Ledger.commitDurability()` hands out, so a caller learns when its deferred commit is durable
/// without starting a sync (docs/ledger.md, "Durability").
///
/// Commits are numbered as they are counted (their generation), and a sync covers the commits counted when it
/// started: SQLite's background sync runs off the ledger's queue while later commits go on (`WALSync`). The ledger's
/// actor counts on its queue; tickets are read from any thread, after the commit they must cover returned, hence
/// the lock.
final class UnsyncedCommits: Sendable {
    private struct State {
        /// Deferred commits that wrote, ever: the last one's generation.
        var committed = 0
        /// The generation up to which every commit is durable.
        var synced = 0
        /// Syncs that succeeded: flushes of deferred commits and synchronous commits that wrote.
        var syncs = 0
        /// Each finished by the sync that covers its generation; made on demand.
        var tickets: [(through: Int, ticket: DurabilityTicket)] = []
        /// The ticket of the background sync queued and not yet started (`queueSync`).
        var queued: DurabilityTicket?
    }
    private let state = Mutex(State())

    /// Deferred commits that wrote and are not yet durable.
    var count: Int { state.withLock { $0.committed - $0.synced } }

    /// The generation of the last deferred commit counted (0: none yet): a sync that starts now covers it.
    var generation: Int { state.withLock { $0.committed } }

    /// The syncs this connection made so far (successful `synced(_:)` and `synchronousCommit()` calls), so tests
    /// see how many syncs a group of writes shared.
    var syncCount: Int { state.withLock { $0.syncs } }

    /// A synchronous commit that may have written ended: it flushed up to its own commit, which on PostgreSQL
    /// covers earlier deferred commits only when it wrote, so the ticket is left as it is.
    func synchronousCommit() {
        state.withLock { $0.syncs += 1 }
    }

    /// A deferred commit wrote: it is committed, not yet durable.
    func committed() {
        state.withLock { $0.committed += 1 }
    }

    /// A sync of the WAL (or a synced commit that wrote, which syncs the whole WAL) ended, covering every commit
    /// counted so far (a sync on the store's queue, where no commit runs beside it).
    func synced(_ outcome: Result<Void, LedgerError>) {
        synced(outcome, through: generation)
    }

    /// A sync that started when `through` was the last generation ended (one off the store's queue covers only the
    /// commits counted before it started): on success the commits up to it are durable; on failure they may not
    /// be, and their tickets say so for good (a later sync finishes new ones).
    func synced(_ outcome: Result<Void, LedgerError>, through: Int) {
        let finished = state.withLock { state -> [DurabilityTicket] in
            if case .success = outcome { (state.synced, state.syncs) = (max(state.synced, through), state.syncs + 1) }
            let covered = state.tickets.filter { $0.through <= through }.map(\.ticket)
            state.tickets.removeAll { $0.through <= through }
            return covered
        }
        for ticket in finished { ticket.complete(outcome) }
    }

    /// The ticket of a background sync that covers every commit made so far; `start` queues that sync, called only
    /// when none is queued: a sync queued but not started yet covers them too (it syncs what was committed when it
    /// starts), so callers asking meanwhile share it instead of queueing one each (group commit).
    func queueSync(_ start: (DurabilityTicket) -> Void) -> DurabilityTicket {
        let (ticket, first) = state.withLock { state -> (DurabilityTicket, Bool) in
            if let queued = state.queued { return (queued, false) }
            let ticket = DurabilityTicket()
            state.queued = ticket
            return (ticket, true)
        }
        if first { start(ticket) }
        return ticket
    }

    /// The queued background sync starts: later callers queue a new one.
    func syncStarting() {
        state.withLock { $0.queued = nil }
    }

    /// The ticket of every commit made so far: finished when none is waiting for a sync.
    func ticket() -> DurabilityTicket {
        state.withLock { state in
            guard state.committed > state.synced else { return DurabilityTicket(completed: .success(())) }
            if let last = state.tickets.last, last.through == state.committed { return last.ticket }
            let ticket = DurabilityTicket()
            state.tickets.append((state.committed, ticket))
            return ticket
        }
    }
}
