import Synchronization

/// The operator's request to stop between tags (the first Ctrl-C): every loop checks it before the next
/// tag, and the waits it was asked to interrupt (a poll for a tag that has not arrived) are cancelled.
///
/// A tag already in the pipeline is never cancelled by it: only `interruptible` bodies are. One object is
/// shared by the signal handler and every worker of a command; a run's workers share a `scoped()` one, so one
/// worker that finds the job complete ends the others' waits too, with its own reason.
public final class StopRequest: Sendable {
    /// Why the stop was requested.
    public enum Reason: Sendable, Hashable {
        /// The operator asked (the first Ctrl-C).
        case interrupt
        /// One worker of a run found no row of the job left open: the others have nothing to wait for.
        case jobComplete
    }

    private struct State {
        var reason: Reason?
        var waits: [Int: @Sendable () -> Void] = [:]
        var nextWait = 0
        var scoped: [StopRequest] = []
    }

    private let state = Mutex(State())
    /// The request this one is `scoped()` from, if any.
    private let parent: StopRequest?

    /// Creates a request that is not yet made.
    public init() { parent = nil }

    private init(scopedFrom parent: StopRequest) { self.parent = parent }

    /// The operator's request this one is scoped from (itself when not scoped): what a step that must finish
    /// unless the operator stops it (a ledger outage ridden out at the end of a run) checks.
    public var operatorRequest: StopRequest { parent?.operatorRequest ?? self }

    /// Whether a stop was requested.
    public var isRequested: Bool { reason != nil }

    /// Why the stop was requested (`nil`: not requested).
    public var reason: Reason? { state.withLock { $0.reason } }

    /// The operator's request (`.interrupt`).
    public func request() { request(.interrupt) }

    /// Requests the stop and cancels every running `interruptible` body, here and in every `scoped()` request;
    /// later calls do nothing more (the first reason stays).
    public func request(_ reason: Reason) {
        let (waits, scoped) = state.withLock { state -> ([@Sendable () -> Void], [StopRequest]) in
            guard state.reason == nil else { return ([], []) }
            state.reason = reason
            defer {
                state.waits = [:]
                state.scoped = []
            }
            return (Array(state.waits.values), state.scoped)
        }
        for cancel in waits { cancel() }
        for request in scoped { request.request(reason) }
    }

    /// A request of its own for one group of workers (a run's readers): made, with its reason, whenever this
    /// one is, and also on its own without making this one (one worker ends its group's waits: `.jobComplete`).
    public func scoped() -> StopRequest {
        let scoped = StopRequest(scopedFrom: self)
        let made = state.withLock { state -> Reason? in
            if state.reason == nil { state.scoped.append(scoped) }
            return state.reason
        }
        if let made { scoped.request(made) }
        return scoped
    }

    /// Runs `body` as a child task that a stop request cancels (its `CancellationError` or the reader's
    /// own cancellation error propagates); runs nothing and throws `CancellationError` once requested.
    public func interruptible<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        // The task is created and registered under the lock, so a request either comes first (nothing runs)
        // or finds the task to cancel.
        let started = state.withLock { state -> (Task<T, any Error>, Int)? in
            guard state.reason == nil else { return nil }
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
