import Synchronization

/// A connection's deferred commits that no sync has covered yet, and the one ticket that finishes when a sync
/// does: what `Ledger.commitDurability()` hands out, so a caller learns when its deferred commit is durable
/// without starting a sync (docs/ledger.md, "Durability").
///
/// The ledger's actor counts and syncs on its queue; the ticket is read from any thread, after the commit it
/// must cover has returned, hence the lock.
final class UnsyncedCommits: Sendable {
    private struct State {
        var count = 0
        /// Syncs that succeeded: flushes of deferred commits and synchronous commits that wrote.
        var syncs = 0
        /// Finished by the sync that covers `count`'s commits; made on demand.
        var ticket: DurabilityTicket?
    }
    private let state = Mutex(State())

    /// Deferred commits that wrote and are not yet durable.
    var count: Int { state.withLock { $0.count } }

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
        state.withLock { $0.count += 1 }
    }

    /// A sync of the WAL (or a synced commit that wrote, which syncs the whole WAL) ended: on success every
    /// commit so far is durable; on failure they may not be, and their ticket says so for good (a later sync
    /// finishes a new one).
    func synced(_ outcome: Result<Void, LedgerError>) {
        let ticket = state.withLock { state -> DurabilityTicket? in
            if case .success = outcome { (state.count, state.syncs) = (0, state.syncs + 1) }
            defer { state.ticket = nil }
            return state.ticket
        }
        ticket?.complete(outcome)
    }

    /// The ticket of every commit made so far: finished when none is waiting for a sync.
    func ticket() -> DurabilityTicket {
        state.withLock { state in
            guard state.count > 0 else { return DurabilityTicket(completed: .success(())) }
            if let ticket = state.ticket { return ticket }
            let ticket = DurabilityTicket()
            state.ticket = ticket
            return ticket
        }
    }
}
