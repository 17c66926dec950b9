internal import CMicroHTTPD
import Support
import Synchronization

/// The requests whose handler runs in a task while their connection is suspended (docs/reference/http.md §6): each
/// one's connection, its answer once there, and its task. One lock orders every suspend, answer, resume and a stop's
/// forced answers, so a connection is resumed exactly once, only after it was suspended, and never after the stop.
struct PendingAnswers {
    /// One suspended request.
    struct Entry {
        /// Its connection (`struct MHD_Connection *`), suspended until `answer` is set.
        let connection: Connection
        /// Makes the answer the access handler queues once libmicrohttpd calls it again after the resume (on the
        /// connection's worker thread).
        var answer: (@Sendable () -> HTTPResponse)? = nil
        /// The handler's task, until it answers.
        var task: Task<Void, Never>? = nil
        /// When the request is answered 503 if its handler is still running (`handlerTimeout`).
        let deadline: ContinuousClock.Instant
    }

    /// A connection pointer kept under the lock; @unchecked: only passed to libmicrohttpd's suspend and resume,
    /// which may be called from any thread (docs/reference/http.md §6).
    struct Connection: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// A stop is forcing answers: no handler starts any more.
    var closing = false
    /// The next request's key.
    var nextID = 0
    /// By key, until libmicrohttpd reports the request completed.
    var entries: [Int: Entry] = [:]
}

extension ServiceCore {
    /// Starts the handler for `request` in a task of its own and suspends the connection, so the worker thread goes on
    /// with other connections; the task's answer resumes the connection (`finish`) and libmicrohttpd calls the access
    /// handler again, which queues it (`answer(of:)`). The request's key, or `nil` when a stop is forcing answers.
    /// Runs in the access handler, on the connection's worker thread (the only place a suspend is allowed).
    func dispatch(_ request: HTTPRequest, on connection: OpaquePointer) -> Int? {
        let handler = self.handler
        // Lock order, here and below: this lock, then libmicrohttpd's (inside suspend and resume); libmicrohttpd
        // calls none of our callbacks while it holds its own.
        guard let id = suspend(connection) else { return nil }
        // The task starts outside the lock (making it wakes a thread): its `finish` finds the entry in any case. Its
        // executor is not the cooperative pool: a caller blocking the pool's few threads (a synchronous test waiting
        // for its client) must not starve the handlers.
        let task = Task(executorPreference: Self.handlerExecutor) {
            let response = await handler(request)
            self.finish(id, with: response)
        }
        let answered = pending.withLock { pending -> Bool in
            guard let entry = pending.entries[id], entry.answer == nil else { return true }
            pending.entries[id] = PendingAnswers.Entry(
                connection: entry.connection, task: task, deadline: entry.deadline)
            return false
        }
        // Answered (or completed) already: by its handler (then the cancel does nothing) or by a stop, which cancels
        // the tasks it finds.
        if answered { task.cancel() }
        return id
    }

    /// Suspends `connection` for an answer that comes later from any thread (`HTTPDeferral`); its key, or `nil` when
    /// a stop is forcing answers. On the connection's worker thread, in the access handler.
    func suspend(_ connection: OpaquePointer) -> Int? {
        let connection = PendingAnswers.Connection(pointer: connection)
        let deadline = ContinuousClock.now.advanced(by: configuration.handlerTimeout)
        return pending.withLock { pending -> Int? in
            guard !pending.closing else { return nil }
            let id = pending.nextID
            pending.nextID &+= 1
            MHD_suspend_connection(connection.pointer)
            pending.entries[id] = PendingAnswers.Entry(connection: connection, deadline: deadline)
            return id
        }
    }

    /// Where the handlers' tasks run.
    static let handlerExecutor = QueueTaskExecutor(label: "provision.http-handlers")

    /// Stores a handler's answer and resumes its connection; dropped when a stop answered the request already.
    ///
    /// The resume runs outside the lock (it wakes the connection's worker thread), counted in `resumesInFlight` from
    /// under the lock on: a stop waits for that count to drop to zero before it stops the daemon.
    func finish(_ id: Int, with response: HTTPResponse) {
        finish(id) { _ in response }
    }

    /// `finish(_:with:)` with an answer that `build` makes on the connection's worker thread (work kept off the
    /// caller's thread: an immediate handler's callback on a ledger's queue), called with `true`. When a deadline or
    /// a stop answered the request already, `build` runs at once on the caller's thread with `false` and its answer
    /// is dropped: what it records (a log line, metrics) still happens, knowing the client got a 503.
    func finish(_ id: Int, building build: @escaping @Sendable (_ delivered: Bool) -> HTTPResponse) {
        let connection = pending.withLock { pending -> PendingAnswers.Connection? in
            guard let entry = pending.entries[id], entry.answer == nil else { return nil }
            pending.entries[id] = PendingAnswers.Entry(
                connection: entry.connection, answer: { build(true) }, deadline: entry.deadline)
            resumesInFlight.add(1, ordering: .relaxed)
            return entry.connection
        }
        guard let connection else {
            _ = build(false)
            return
        }
        // Still suspended until this call: libmicrohttpd neither times out nor closes a suspended connection, and a
        // stop does not stop the daemon while this resume is counted.
        MHD_resume_connection(connection.pointer)
        resumesInFlight.subtract(1, ordering: .releasing)
    }

    /// The answer of a resumed request, for the access handler to queue.
    func answer(of id: Int) -> HTTPResponse {
        // A connection is resumed only once its answer is stored, so the fallback is never expected.
        pending.withLock { $0.entries[id]?.answer }?() ?? .text(500, "internal error: the answer went missing")
    }

    /// Forgets a request libmicrohttpd has finished with (the request-completed callback): sent, or its client gone.
    func forget(_ id: Int) {
        pending.withLock { _ = $0.entries.removeValue(forKey: id) }
    }

    /// Requests started but not yet completed by libmicrohttpd.
    var pendingCount: Int { pending.withLock { $0.entries.count } }

    /// A stop's last phase: no handler starts any more (503 instead), every request still waiting for its handler is
    /// answered 503 and its connection resumed, and those handlers' tasks are cancelled (their answers are dropped).
    func answerRemaining() {
        let stopping = stoppingAnswer
        let tasks = pending.withLock { pending -> [Task<Void, Never>] in
            pending.closing = true
            return Self.answer(&pending, with: stopping) { _ in true }
        }
        for task in tasks { task.cancel() }
    }

    /// Answers 503 every request whose handler is still running at its deadline (`handlerTimeout`), resumes its
    /// connection and cancels its task (its late answer is dropped); nothing once a stop is forcing answers.
    func answerOverdue(now: ContinuousClock.Instant) {
        let overdue = overdueAnswer
        let tasks = pending.withLock { pending -> [Task<Void, Never>] in
            guard !pending.closing else { return [] }
            return Self.answer(&pending, with: overdue) { $0.deadline <= now }
        }
        for task in tasks { task.cancel() }
    }

    /// Stores `answer` for every unanswered request `selected` picks and resumes its connection, under the lock;
    /// returns their tasks, for the caller to cancel outside it.
    private static func answer(
        _ pending: inout PendingAnswers, with answer: HTTPResponse, _ selected: (PendingAnswers.Entry) -> Bool
    ) -> [Task<Void, Never>] {
        var tasks: [Task<Void, Never>] = []
        for (id, entry) in pending.entries where entry.answer == nil && selected(entry) {
            pending.entries[id] = PendingAnswers.Entry(
                connection: entry.connection, answer: { answer }, deadline: entry.deadline)
            MHD_resume_connection(entry.connection.pointer)
            if let task = entry.task { tasks.append(task) }
        }
        return tasks
    }

    /// Checks for overdue handlers every quarter of `handlerTimeout` (10 ms to a second apart) until cancelled (a
    /// stop); on the handlers' executor, so blocked pool threads cannot hold it back.
    func startDeadlineSweep() -> Task<Void, Never> {
        let interval = max(min(configuration.handlerTimeout / 4, .seconds(1)), .milliseconds(10))
        return Task(executorPreference: Self.handlerExecutor) { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                self.answerOverdue(now: .now)
            }
        }
    }

    /// The answer to a request whose handler ran past `handlerTimeout`.
    var overdueAnswer: HTTPResponse {
        .text(503, "the request took too long to answer; try again", headers: [.init("Retry-After", "1")])
    }

    /// The answer to a request whose handler a stop did not wait for.
    var stoppingAnswer: HTTPResponse {
        .text(503, "the server is stopping; try again", headers: [.init("Retry-After", "1")])
    }
}

/// An immediate handler's way to answer later (`HTTPImmediateHandler`): `suspend()` parks the connection and gives
/// the function that answers it, once, from any thread. Used on the worker thread only, during the handler's call.
public final class HTTPDeferral {
    private let core: ServiceCore
    private let connection: OpaquePointer
    /// The suspended request's key, once `suspend()` was called.
    private(set) var id: Int?

    init(core: ServiceCore, connection: OpaquePointer) {
        self.core = core
        self.connection = connection
    }

    /// Suspends the connection and returns the function that answers it, from any thread, with a closure that makes
    /// the answer on the connection's worker thread (later calls do nothing); `nil` when the server is stopping, and
    /// then the handler answers now. Call it at most once; a handler that called it returns `nil`.
    ///
    /// The closure gets `true` when its answer is sent. A deferred request still running after `handlerTimeout` (or
    /// at a stop) is answered 503; the closure then runs on the answering thread with `false`, its answer dropped, so
    /// the handler can still log what it decided.
    public func suspend() -> (@Sendable (@escaping @Sendable (_ delivered: Bool) -> HTTPResponse) -> Void)? {
        guard id == nil, let id = core.suspend(connection) else { return nil }
        self.id = id
        let once = Once()
        return { [core] build in
            guard once.first() else { return }
            core.finish(id, building: build)
        }
    }
}

/// True the first time only, from any thread.
private final class Once: Sendable {
    private let done = Atomic(false)

    func first() -> Bool { !done.exchange(true, ordering: .acquiringAndReleasing) }
}

@available(*, unavailable)
extension HTTPDeferral: Sendable {}
