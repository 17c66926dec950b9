import Synchronization
import Testing

@testable import Ledger

/// `QueueBatch`: the first request of an empty batch queues the serving, which answers every waiting request in
/// their order, or fails them all.
@Suite struct QueueBatchTests {
    private final class Answers: Sendable {
        let got = Mutex<[Int: Result<String, LedgerError>]>([:])
        func waiter(_ id: Int) -> QueueBatch<Int, String>.Waiter {
            { [self] result in got.withLock { $0[id] = result } }
        }
    }

    @Test func oneServingAnswersEveryWaitingRequestInOrder() throws {
        let batch = QueueBatch<Int, String>()
        let answers = Answers()
        #expect(batch.add(10, answers.waiter(10)), "the first request queues a serving")
        #expect(!batch.add(20, answers.waiter(20)) && !batch.add(30, answers.waiter(30)), "the queued one serves them")
        let served = Mutex<[[Int]]>([])
        batch.serveWaiting { requests in
            served.withLock { $0.append(requests) }
            return requests.map { "answer \($0)" }
        }
        #expect(served.withLock { $0 } == [[10, 20, 30]])
        #expect(
            answers.got.withLock { $0 }.mapValues { try? $0.get() } == [
                10: "answer 10", 20: "answer 20", 30: "answer 30",
            ])
        batch.serveWaiting { _ in
            Issue.record("an empty batch is not served")
            return []
        }
        #expect(batch.add(40, answers.waiter(40)), "after a serving, the next request queues one again")
    }

    @Test func aFailedServingOrAShortAnswerFailsEveryRequest() throws {
        let batch = QueueBatch<Int, String>()
        let answers = Answers()
        _ = batch.add(1, answers.waiter(1))
        _ = batch.add(2, answers.waiter(2))
        batch.serveWaiting { _ throws(LedgerError) in throw LedgerError(.busy, "locked") }
        #expect(
            answers.got.withLock { $0 }.values.allSatisfy { (try? $0.get()) == nil }
                && answers.got.withLock { $0.count } == 2)
        _ = batch.add(3, answers.waiter(3))
        _ = batch.add(4, answers.waiter(4))
        batch.serveWaiting { _ in ["only one"] }
        let short = answers.got.withLock { [$0[3], $0[4]] }
        for result in short {
            #expect(throws: LedgerError(.invalidState, "")) { try result?.get() }
        }
    }
}
