import Foundation
import Support

/// Deferred durability, written once for both stores: a store counts its deferred commits (`UnsyncedCommits`) and
/// says how it makes them durable (`flushDeferredCommits`: SQLite syncs its WAL, PostgreSQL commits synchronously).
protocol DeferredSyncing: SQLLedger {
    /// The queue the store's actor runs on.
    nonisolated var executor: QueueExecutor { get }
    /// Deferred commits not yet covered by a flush, and the ticket a flush finishes for them.
    nonisolated var unsynced: UnsyncedCommits { get }
    /// Tap verifications waiting for the store's queue, recorded in batches (`acceptTap`).
    nonisolated var taps: QueueBatch<TapRequest, TapAnswer> { get }
    /// Makes every commit of the connection durable (on the store's queue).
    func flushDeferredCommits() throws(LedgerError)
    /// A tap's reads inside a batch: `tapLookupNow`, or what the store kept of them (SQLite: `TapLookupCache`).
    func tapLookupInBatch(job: String, uid: [UInt8]) throws(LedgerError) -> TapLookup?
    /// A tap's counter recorded inside a batch (`recordSUNCounter`).
    func recordTapCounter(job: String, uid: String, counter: Int, at time: String) throws(LedgerError) -> Bool
}

extension DeferredSyncing {
    /// Makes every commit of this connection durable, if any is not yet.
    ///
    /// The line calls it when it goes idle and when it stops, so a deferred `markDone` never waits for
    /// the next tag's claim longer than that.
    public func sync() async throws(LedgerError) {
        guard unsynced.count > 0 else { return }
        try await perform { () throws(LedgerError) in try syncNow().get() }
    }

    /// Starts `sync()` on the ledger's queue and returns at once: the ticket finishes when every commit made
    /// before the call is durable.
    ///
    /// The line calls it after a `.deferred` claim when identify takes longer than a sync, so the sync
    /// runs under the tag's identify and detection exchanges; the tag's first WRITE waits for the ticket
    /// (docs/ledger.md, "Durability").
    ///
    /// A sync already queued and not yet started is shared: it covers the caller's commits too (group commit: the
    /// callers that commit while one sync runs share the next one).
    public nonisolated func syncInBackground() -> DurabilityTicket {
        unsynced.queueSync { ticket in
            executor.async { [self] in
                assumeIsolated { ledger in
                    ledger.unsynced.syncStarting()
                    let clock = ContinuousClock()
                    let start = clock.now
                    let outcome = ledger.syncNow()
                    ticket.complete(outcome, duration: clock.now - start)
                }
            }
        }
    }

    /// A ticket that finishes when every commit this connection has made so far is durable: at once when none
    /// waits, else with the flush that covers them (the next synchronous commit that writes, `sync()` or
    /// `syncInBackground()`), failed if that flush fails. It starts no flush.
    public nonisolated func commitDurability() -> DurabilityTicket { unsynced.ticket() }

    /// Commits made with `.deferred` durability that no flush has covered yet.
    public var unsyncedCommitCount: Int { unsynced.count }

    /// The syncs this connection has made: flushes of deferred commits, and synchronous commits that (may have)
    /// written, each one sync of the WAL. Tests count how many commits concurrent writes shared
    /// (`acceptSUNCounter`'s group commit).
    public nonisolated var syncCount: Int { unsynced.syncCount }

    /// Flushes if any commit is not yet durable (on the ledger's queue), and finishes the waiting ticket.
    func syncNow() -> Result<Void, LedgerError> {
        guard unsynced.count > 0 else { return .success(()) }
        let outcome: Result<Void, LedgerError>
        do throws(LedgerError) {
            try flushDeferredCommits()
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        unsynced.synced(outcome)
        return outcome
    }
}
