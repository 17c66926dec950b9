import Support
import Testing

/// An actor on a `QueueExecutor` runs its jobs on that queue, one at a time, in order.
private actor Counter {
    let executor = QueueExecutor(label: "test.counter")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private(set) var values: [Int] = []
    private(set) var onQueue = true

    func add(_ value: Int) {
        onQueue = onQueue && executor.isCurrent
        values.append(value)
    }
}

@Test func anActorOnAQueueExecutorRunsItsJobsOnThatQueue() async {
    let counter = Counter()
    for value in 0..<100 { await counter.add(value) }
    #expect(await counter.values == Array(0..<100))
    #expect(await counter.onQueue)
    #expect(!counter.executor.isCurrent, "the test itself does not run on the queue")
}
