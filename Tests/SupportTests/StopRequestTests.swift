import Support
import Synchronization
import Testing

/// `StopRequest`: the flag every loop checks, and the waits it cancels.
@Suite struct StopRequestTests {
    @Test func aRequestIsSeenAndMadeOnce() {
        let stop = StopRequest()
        #expect(!stop.isRequested)
        stop.request()
        stop.request()
        #expect(stop.isRequested)
    }

    @Test func anInterruptibleBodyRunsToItsEndWithoutARequest() async throws {
        let stop = StopRequest()
        let value = try await stop.interruptible { 42 }
        #expect(value == 42)
        #expect(!stop.isRequested)
    }

    @Test func aRequestCancelsTheRunningWait() async throws {
        let stop = StopRequest()
        let started = Atomic<Bool>(false)
        let waiting = Task {
            try await stop.interruptible {
                started.store(true, ordering: .relaxed)
                try await Task.sleep(for: .seconds(600))
                return "slept"
            }
        }
        while !started.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(5)) }
        stop.request()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test func afterARequestNothingRuns() async {
        let stop = StopRequest()
        stop.request()
        let ran = Atomic<Bool>(false)
        await #expect(throws: CancellationError.self) {
            try await stop.interruptible { ran.store(true, ordering: .relaxed) }
        }
        let didRun = ran.load(ordering: .relaxed)
        #expect(!didRun)
    }

    @Test func aRequestKeepsItsFirstReason() {
        let stop = StopRequest()
        #expect(stop.reason == nil)
        stop.request(.jobComplete)
        stop.request()
        #expect(stop.reason == .jobComplete)
    }

    /// A run's scoped request: the operator's reaches it, and its own (the job complete) stays in the run.
    @Test func aScopedRequestFollowsItsParentButNotTheOtherWay() {
        let command = StopRequest()
        let run = command.scoped()
        run.request(.jobComplete)
        #expect(run.reason == .jobComplete)
        #expect(!command.isRequested, "the job complete is no operator interrupt")
        #expect(run.operatorRequest === command && command.operatorRequest === command)

        let other = command.scoped()
        command.request()
        #expect(other.reason == .interrupt)
        #expect(command.scoped().reason == .interrupt, "scoped after the request: already made")
    }

    @Test func theParentsRequestCancelsAScopedWait() async throws {
        let command = StopRequest()
        let run = command.scoped()
        let started = Atomic<Bool>(false)
        let waiting = Task {
            try await run.interruptible {
                started.store(true, ordering: .relaxed)
                try await Task.sleep(for: .seconds(600))
            }
        }
        while !started.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(5)) }
        command.request()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test func cancellingTheCallerCancelsTheBodyWithoutARequest() async throws {
        let stop = StopRequest()
        let waiting = Task { try await stop.interruptible { try await Task.sleep(for: .seconds(600)) } }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(!stop.isRequested)
    }
}
