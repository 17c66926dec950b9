import Dispatch

/// Runs an actor's jobs on one dedicated serial queue (STYLE.md §4.2), so blocking calls into a C
/// library (libnfc, pcsc-lite) or a simulated reader that really waits the modelled airtime occupy
/// only that queue, never the cooperative thread pool. Shared by every reader backend.
public final class QueueExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: the only stored property is an immutable DispatchQueue, which is thread-safe.
    private let queue: DispatchQueue

    /// Creates an executor on a new serial queue named `label`.
    public init(label: String) { queue = DispatchQueue(label: label) }

    /// Runs `job` on the queue.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// This executor as the actor's serial executor.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
