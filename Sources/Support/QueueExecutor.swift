import Dispatch

/// Runs an actor's jobs on one dedicated serial queue (docs/style.md §4.2), so blocking calls into a C
/// library (SQLite, libnfc, pcsc-lite) or a simulated reader that really waits the modelled airtime
/// occupy only that queue, never the cooperative thread pool. Shared by the ledger and every reader.
public final class QueueExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: the only stored property is an immutable DispatchQueue, which is thread-safe.
    private let queue: DispatchQueue
    private static let key = DispatchSpecificKey<UInt>()

    /// Creates an executor over a new serial queue named `label`.
    public init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.key, value: UInt(bitPattern: ObjectIdentifier(self)))
    }

    /// Whether the calling code runs on this executor's queue.
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == UInt(bitPattern: ObjectIdentifier(self)) }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Runs `block` on the queue after the jobs already enqueued (a plain block, not an actor job).
    public func async(_ block: @escaping @Sendable () -> Void) {
        queue.async(execute: block)
    }

    /// Runs `block` on the queue and waits for it: for a synchronous caller (a tag step deriving a key in a token)
    /// that must not run the actor's C calls on its own thread. Never call it from the queue itself.
    public func sync<T>(_ block: () throws -> T) rethrows -> T {
        precondition(!isCurrent, "QueueExecutor.sync called from its own queue would deadlock")
        return try queue.sync(execute: block)
    }

    /// Lets `assumeIsolated` accept code running on the queue outside an actor job.
    public func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    public func isIsolatingCurrentContext() -> Bool? { isCurrent }

    /// This executor as the actor's serial executor.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
