import Ledger
import Synchronization

/// Hands one worker's row outcomes to its observer once each is durable, in the order the worker recorded them.
///
/// Each outcome waits for its ledger ticket (`LedgerStore.commitDurability()`, taken after the outcome's last
/// write): a deferred done commit for the sync that covers it (the next claim's, the idle line's, the run's
/// last), an immediate write at once. An outcome whose sync failed is dropped: its commit may not be durable.
/// No task waits: the ticket calls back when it finishes, so an outcome never made durable is simply never told.
final class OutcomeDelivery: Sendable {
    private struct State {
        var queue: [(outcome: RowOutcome, ticket: DurabilityTicket)] = []
        /// A caller is handing outcomes to the observer: the others leave theirs to it.
        var delivering = false
    }
    private let state = Mutex(State())
    private let observer: RowOutcomeObserver

    /// Delivers to `observer`.
    init(_ observer: @escaping RowOutcomeObserver) {
        self.observer = observer
    }

    /// Queues `outcome` until `ticket` finishes.
    func add(_ outcome: RowOutcome, after ticket: DurabilityTicket) {
        state.withLock { $0.queue.append((outcome, ticket)) }
        ticket.whenComplete { [self] _ in deliverReady() }
    }

    /// Delivers the outcomes at the head of the queue whose tickets have finished (dropping the failed ones),
    /// one caller at a time, so the observer sees them in order and never twice at once.
    private func deliverReady() {
        let turn = state.withLock { state in
            guard !state.delivering else { return false }
            state.delivering = true
            return true
        }
        guard turn else { return }
        while true {
            let ready = state.withLock { state -> [RowOutcome] in
                var ready: [RowOutcome] = []
                while let head = state.queue.first, head.ticket.isComplete {
                    state.queue.removeFirst()
                    if head.ticket.isDurable { ready.append(head.outcome) }
                }
                if ready.isEmpty { state.delivering = false }
                return ready
            }
            guard !ready.isEmpty else { return }
            for outcome in ready { observer(outcome) }
        }
    }
}
