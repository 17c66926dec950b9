import Dispatch

/// Runs `operation` to completion from synchronous code and returns its result on the calling thread: the bridge
/// a reader's queue uses to wait for an async store (the ledger's key journal) before its next tag command.
///
/// The operation runs with a task executor of its own (`BlockingWaitExecutor`), never on the cooperative pool:
/// the calling thread may be one of that pool's few threads (an instant simulated reader runs the pipeline on
/// it), and two such waits blocking the pool while their operations queue behind them would never end. The
/// wait blocks the calling thread, never the executor `operation` runs on; do not call it from that executor.
public func waitBlocking<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    Task(executorPreference: BlockingWaitExecutor.shared) {
        do { box.result = .success(try await operation()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    // The task always stores a result before it signals.
    return try box.result!.get()
}

/// The task executor of `waitBlocking`'s operations: jobs run on a concurrent dispatch queue, whose threads
/// are not the cooperative pool's.
final class BlockingWaitExecutor: TaskExecutor {
    static let shared = BlockingWaitExecutor()
    private let queue = DispatchQueue(label: "provision.blocking-wait", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// The outcome of a waited operation.
private final class ResultBox<T>: @unchecked Sendable {
    // @unchecked: written once before the semaphore is signalled, read after the wait.
    var result: Result<T, any Error>?
}
