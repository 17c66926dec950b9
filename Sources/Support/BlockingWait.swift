import Dispatch

/// Runs `operation` to completion from synchronous code and returns its result on the calling thread: the bridge
/// a reader's queue uses to wait for an async store (the ledger's key journal) before its next tag command.
///
/// The operation runs with a task executor of its own (`QueueTaskExecutor.blockingWait`), never on the cooperative
/// pool: the calling thread may be one of that pool's few threads (an instant simulated reader runs the pipeline on
/// it), and two such waits blocking the pool while their operations queue behind them would never end. The
/// wait blocks the calling thread, never the executor `operation` runs on; do not call it from that executor.
public func waitBlocking<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    Task(executorPreference: QueueTaskExecutor.blockingWait) {
        do { box.result = .success(try await operation()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    // The task always stores a result before it signals.
    return try box.result!.get()
}

/// A task executor whose jobs run on a concurrent dispatch queue, whose threads are not the cooperative pool's: for
/// tasks that must make progress while code blocks pool threads (`waitBlocking`'s operations, the HTTP server's
/// handlers).
public final class QueueTaskExecutor: TaskExecutor {
    /// The executor of `waitBlocking`'s operations.
    static let blockingWait = QueueTaskExecutor(label: "provision.blocking-wait")
    private let queue: DispatchQueue

    /// An executor on a concurrent queue named `label` (it shows in debuggers and crash reports).
    public init(label: String) {
        queue = DispatchQueue(label: label, attributes: .concurrent)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// The outcome of a waited operation.
private final class ResultBox<T>: @unchecked Sendable {
    // @unchecked: written once before the semaphore is signalled, read after the wait.
    var result: Result<T, any Error>?
}
