import Dispatch
import Synchronization

/// Says when a background sync of the ledger's WAL (`Ledger.syncInBackground()`) has made earlier commits
/// durable, so a reader's queue can hold its first WRITE until then without a task hop.
public final class DurabilityTicket: Sendable {
    private let result = Mutex<Result<Void, LedgerError>?>(nil)
    private let duration = Mutex<Double?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// A pending ticket; `complete(_:)` finishes it.
    init() {}

    /// A ticket that is already finished with `result` (an immediate commit, or tests).
    public init(completed result: Result<Void, LedgerError>) {
        self.result.withLock { $0 = result }
        finished.signal()
    }

    /// Finishes the ticket once, after a sync of `microseconds`; later calls are ignored.
    func complete(_ outcome: Result<Void, LedgerError>, microseconds: Double? = nil) {
        duration.withLock { $0 = microseconds }
        let first = result.withLock { stored in
            guard stored == nil else { return false }
            stored = outcome
            return true
        }
        if first { finished.signal() }
    }

    /// How long the sync took on the ledger's queue, once finished (`nil` for a ticket made finished).
    public var syncMicroseconds: Double? { duration.withLock { $0 } }

    /// Whether the sync has finished (successfully or not).
    public var isComplete: Bool { result.withLock { $0 != nil } }

    /// Blocks the calling thread until the sync has finished; call it off the cooperative pool (a
    /// reader's own queue).
    ///
    /// - Throws: the sync's error (`LedgerError`, with SQLite's result code): the commits may not be durable.
    public func wait() throws(LedgerError) {
        if let outcome = result.withLock({ $0 }) { return try outcome.get() }
        finished.wait()
        finished.signal()  // let any other waiter through
        try result.withLock { $0 }!.get()
    }
}
