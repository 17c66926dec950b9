import Dispatch

/// Runs `operation` to completion from synchronous code and returns its result on the calling thread: the bridge
/// a reader's queue uses to wait for an async store (the ledger's key journal) before its next tag command.
///
/// The wait blocks the calling thread, never the executor `operation` runs on; do not call it from that executor.
public func waitBlocking<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    Task {
        do { box.result = .success(try await operation()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    // The task always stores a result before it signals.
    return try box.result!.get()
}

/// The outcome of a waited operation.
private final class ResultBox<T>: @unchecked Sendable {
    // @unchecked: written once before the semaphore is signalled, read after the wait.
    var result: Result<T, any Error>?
}
