import Dispatch

/// Runs an actor's jobs on one dedicated serial queue, so blocking SQLite calls stay off the cooperative pool.
final class QueueExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: the only stored property is an immutable DispatchQueue, which is thread-safe.
    private let queue: DispatchQueue
    private static let key = DispatchSpecificKey<UInt>()

    /// Creates an executor over a new serial queue named `label`.
    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.key, value: UInt(bitPattern: ObjectIdentifier(self)))
    }

    /// Whether the calling code runs on this executor's queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == UInt(bitPattern: ObjectIdentifier(self)) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Runs `block` on the queue after the jobs already enqueued (a plain block, not an actor job).
    func async(_ block: @escaping @Sendable () -> Void) {
        queue.async(execute: block)
    }

    /// Lets `assumeIsolated` accept code running on the queue outside an actor job.
    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    func isIsolatingCurrentContext() -> Bool? { isCurrent }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
