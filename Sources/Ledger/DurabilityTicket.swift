import Synchronization

/// Says when a background sync of the ledger's WAL (`Ledger.syncInBackground()`) has made earlier commits
/// durable; a tag's first write awaits it (a continuation, never a blocked thread).
public final class DurabilityTicket: Sendable {
    private struct State {
        var finish: (result: Result<Void, LedgerError>, duration: Duration?)?
        var waiters: [CheckedContinuation<Void, any Error>] = []
        var callbacks: [@Sendable (Result<Void, LedgerError>) -> Void] = []
    }
    private let state = Mutex(State())

    /// A pending ticket; `complete(_:)` finishes it.
    public init() {}

    /// A ticket that is already finished with `result` (an immediate commit, or tests).
    public init(completed result: Result<Void, LedgerError>) {
        state.withLock { $0.finish = (result, nil) }
    }

    /// Finishes the ticket once, after a sync that took `duration`, and resumes every waiter; later
    /// calls are ignored.
    public func complete(_ outcome: Result<Void, LedgerError>, duration: Duration? = nil) {
        typealias Pending = ([CheckedContinuation<Void, any Error>], [@Sendable (Result<Void, LedgerError>) -> Void])
        let (waiters, callbacks) = state.withLock { stored -> Pending in
            guard stored.finish == nil else { return ([], []) }
            stored.finish = (outcome, duration)
            defer { (stored.waiters, stored.callbacks) = ([], []) }
            return (stored.waiters, stored.callbacks)
        }
        for waiter in waiters { waiter.resume(with: outcome.mapError { $0 as any Error }) }
        for callback in callbacks { callback(outcome) }
    }

    /// Calls `body` once with the sync's result, without a task waiting for it: at once on this thread when the
    /// sync has finished, else on the thread that finishes it (the ledger's queue); keep `body` short.
    public func whenComplete(_ body: @escaping @Sendable (Result<Void, LedgerError>) -> Void) {
        let finished = state.withLock { stored -> Result<Void, LedgerError>? in
            if let finish = stored.finish { return finish.result }
            stored.callbacks.append(body)
            return nil
        }
        if let finished { body(finished) }
    }

    /// How long the sync took on the ledger's queue, once finished (`nil` for a ticket made finished).
    public var syncDuration: Duration? { state.withLock { $0.finish?.duration } }

    /// Whether the sync has finished (successfully or not).
    public var isComplete: Bool { state.withLock { $0.finish != nil } }

    /// Whether the sync has finished successfully: the earlier commits are durable.
    public var isDurable: Bool {
        state.withLock { stored in
            guard case .success = stored.finish?.result else { return false }
            return true
        }
    }

    /// Waits until the sync has finished.
    ///
    /// - Throws: the sync's error (`LedgerError`, with SQLite's result code): the commits may not be durable.
    public func wait() async throws(LedgerError) {
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let finished = state.withLock { stored -> Result<Void, LedgerError>? in
                    if let finish = stored.finish { return finish.result }
                    stored.waiters.append(continuation)
                    return nil
                }
                if let finished { continuation.resume(with: finished.mapError { $0 as any Error }) }
            }
        } catch let error as LedgerError {
            throw error
        } catch {
            throw LedgerError(.interrupted, "the ledger sync ended unexpectedly: \(error)")
        }
    }
}
