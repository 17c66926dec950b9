import Support
import Synchronization

/// Requests waiting for a store's queue, served there together (`DeferredSyncing.together`): a request added to an
/// empty batch queues one serving, which takes every request waiting by the time it runs.
///
/// While the queue is busy the batch gathers what arrives, so it grows with the load and costs nothing at idle: a
/// request alone is served as soon as the queue is free, as a call on the store would be. Tap verification reads
/// and records this way (one transaction, one lock and one page write for many taps, instead of one each).
final class QueueBatch<Request: Sendable, Answer: Sendable>: Sendable {
    /// A caller waiting for its answer: called once, on the store's queue (keep it short).
    typealias Waiter = @Sendable (Result<Answer, LedgerError>) -> Void

    private let waiting = Mutex<[(request: Request, waiter: Waiter)]>([])

    init() {}

    /// Adds a waiting request; returns whether the caller must queue a serving (the batch was empty, so none is
    /// queued: the last serving took every request before it).
    func add(_ request: Request, _ waiter: @escaping Waiter) -> Bool {
        waiting.withLock { list in
            list.append((request, waiter))
            return list.count == 1
        }
    }

    /// Serves every waiting request with one call of `serve` (answers in the requests' order), on the caller's
    /// thread (the store's queue), and resumes their callers; a failure of that call is every request's.
    func serveWaiting(_ serve: ([Request]) throws(LedgerError) -> [Answer]) {
        let taken = waiting.withLock { list in
            defer { list = [] }
            return list
        }
        guard !taken.isEmpty else { return }
        let outcome = Result { () throws(LedgerError) in try serve(taken.map(\.request)) }
        for (index, item) in taken.enumerated() {
            item.waiter(
                outcome.flatMap { answers in
                    guard answers.count == taken.count else {
                        let message = "a batch of \(taken.count) requests got \(answers.count) answers"
                        return .failure(LedgerError(.invalidState, message))
                    }
                    return .success(answers[index])
                })
        }
    }
}

extension DeferredSyncing {
    /// Serves `request` together with every request waiting in `batch`: `serve` gets them all in one call on the
    /// store's queue (one transaction) and answers in their order; a failure of that call is every request's.
    ///
    /// Not routed to the store's interrupt call: one caller's cancellation would fail the others' requests. A batch
    /// is a few statements and a sync, so a cancelled caller gets its answer soon.
    nonisolated func together<Request, Answer>(
        _ request: Request, in batch: QueueBatch<Request, Answer>,
        _ serve: @escaping @Sendable (isolated Self, [Request]) throws(LedgerError) -> [Answer]
    ) async throws(LedgerError) -> Answer {
        let outcome = await withCheckedContinuation {
            (waiter: CheckedContinuation<Result<Answer, LedgerError>, Never>) in
            together(request, in: batch, serve) { waiter.resume(returning: $0) }
        }
        return try outcome.get()
    }

    /// `together` for a caller that is no task: `answered` gets the answer on the store's queue.
    nonisolated func together<Request, Answer>(
        _ request: Request, in batch: QueueBatch<Request, Answer>,
        _ serve: @escaping @Sendable (isolated Self, [Request]) throws(LedgerError) -> [Answer],
        answered: @escaping QueueBatch<Request, Answer>.Waiter
    ) {
        guard batch.add(request, answered) else { return }
        executor.async { [self] in
            assumeIsolated { store in
                batch.serveWaiting { requests throws(LedgerError) in try serve(store, requests) }
            }
        }
    }
}
