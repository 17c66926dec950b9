import Synchronization

/// The operator's request to stop between tags (the first Ctrl-C): every loop checks it before the next
/// tag, and the waits it was asked to interrupt (a poll for a tag that has not arrived) are cancelled.
///
/// A tag already in the pipeline is never cancelled by it: only `interruptible` bodies are. One object is
/// shared by the signal handler and every worker of a command.
public final class StopRequest: Sendable {
    private struct State {
        var requested = false
        var waits: [Int: @Sendable () -> Void] = [:]
        var nextWait = 0
    }

    private let state = Mutex(State())

    /// Creates a request that is not yet made.
    public init() {}

    /// Whether a stop was requested.
    public var isRequested: Bool { state.withLock { $0.requested } }

    /// Requests the stop and cancels every running `interruptible` body; later calls do nothing more.
    public func request() {
        let waits = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.requested else { return [] }
            state.requested = true
            defer { state.waits = [:] }
            return Array(state.waits.values)
        }
        for cancel in waits { cancel() }
    }

    /// Runs `body` as a child task that a stop request cancels (its `CancellationError` or the reader's
    /// own cancellation error propagates); runs nothing and throws `CancellationError` once requested.
    public func interruptible<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        // The task is created and registered under the lock, so a request either comes first (nothing runs)
        // or finds the task to cancel.
        let started = state.withLock { state -> (Task<T, any Error>, Int)? in
            guard !state.requested else { return nil }
            let task = Task { try await body() }
            state.nextWait += 1
            state.waits[state.nextWait] = { task.cancel() }
            return (task, state.nextWait)
        }
        guard let (task, registered) = started else { throw CancellationError() }
        defer { _ = state.withLock { $0.waits.removeValue(forKey: registered) } }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
