import Dispatch
import Synchronization

/// Says when a background sync of the ledger's WAL (`Ledger.syncInBackground()`) has made earlier commits
/// durable, so a reader's queue can hold its first WRITE until then without a task hop.
public final class DurabilityTicket: Sendable {
    private struct Finish {
        var result: Result<Void, LedgerError>
        var duration: Duration?
    }
    private let state = Mutex<Finish?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// A pending ticket; `complete(_:)` finishes it.
    init() {}

    /// A ticket that is already finished with `result` (an immediate commit, or tests).
    public init(completed result: Result<Void, LedgerError>) {
        state.withLock { $0 = Finish(result: result, duration: nil) }
        finished.signal()
    }

    /// Finishes the ticket once, after a sync that took `duration`; later calls are ignored.
    func complete(_ outcome: Result<Void, LedgerError>, duration: Duration? = nil) {
        let first = state.withLock { stored in
            guard stored == nil else { return false }
            stored = Finish(result: outcome, duration: duration)
            return true
        }
        if first { finished.signal() }
    }

    /// How long the sync took on the ledger's queue, once finished (`nil` for a ticket made finished).
    public var syncDuration: Duration? { state.withLock { $0?.duration } }

    /// Whether the sync has finished (successfully or not).
    public var isComplete: Bool { state.withLock { $0 != nil } }

    /// Blocks the calling thread until the sync has finished; call it off the cooperative pool (a
    /// reader's own queue).
    ///
    /// - Throws: the sync's error (`LedgerError`, with SQLite's result code): the commits may not be durable.
    public func wait() throws(LedgerError) {
        if let done = state.withLock({ $0 }) { return try done.result.get() }
        finished.wait()
        finished.signal()  // let any other waiter through
        try state.withLock { $0 }!.result.get()
    }
}
