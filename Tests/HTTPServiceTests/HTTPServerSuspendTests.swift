import Dispatch
import Foundation
import Glibc
import HTTPService
import Synchronization
import Testing

/// A gate slow handlers wait at until the test opens it; it counts the handlers that reached it and left it, and
/// how many of those saw their task cancelled.
final class HandlerGate: Sendable {
    private struct State {
        var open = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    /// Signalled once per handler that reached the gate.
    let entered = DispatchSemaphore(value: 0)
    /// Signalled once per handler that went through it.
    let left = DispatchSemaphore(value: 0)
    let cancelled = Atomic<Int>(0)

    /// A handler that waits at the gate, then answers 200 `slow`; `/fast` answers at once.
    var handler: HTTPHandler {
        { @Sendable request in
            guard request.path != "/fast" else { return .text(200, "fast") }
            self.entered.signal()
            await withCheckedContinuation { continuation in
                let resumeNow = self.state.withLock { state in
                    if !state.open { state.waiting.append(continuation) }
                    return state.open
                }
                if resumeNow { continuation.resume() }
            }
            if Task.isCancelled { self.cancelled.add(1, ordering: .relaxed) }
            self.left.signal()
            return .text(200, "slow")
        }
    }

    /// Lets every waiting and later handler through.
    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Waits until `count` more handlers reached the gate (at most 30 s in all, then false).
    func waitEntered(_ count: Int) -> Bool { wait(entered, count) }

    /// Waits until `count` more handlers went through the gate (at most 30 s in all, then false).
    func waitLeft(_ count: Int) -> Bool { wait(left, count) }

    private func wait(_ semaphore: DispatchSemaphore, _ count: Int) -> Bool {
        let deadline = DispatchTime.now() + .seconds(30)
        return (0..<count).allSatisfy { _ in semaphore.wait(timeout: deadline) == .success }
    }
}

/// Handlers run while their connection is suspended: a few worker threads carry any number of requests in flight,
/// and a stop answers every one of them before the daemon stops.
@Suite struct HTTPServerSuspendTests {
    private func start(
        _ gate: HandlerGate, _ configure: (inout HTTPServer.Configuration) -> Void = { _ in }
    ) throws -> (HTTPServer, Int) {
        try loopbackServer(threads: 2, perClient: 256, handler: gate.handler, configure)
    }

    /// Connects `count` clients that each send one slow request.
    private func slowClients(_ count: Int, port: Int) throws -> [RawClient] {
        try (0..<count).map { _ in
            let client = try RawClient(port: port)
            client.send(Array("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            return client
        }
    }

    /// The status line of what a client received before the server closed the connection.
    private func statusLine(_ client: RawClient) -> String {
        let answer = client.readToClose(seconds: 30).map { String(decoding: $0, as: UTF8.self) } ?? "nothing"
        return answer.components(separatedBy: "\r\n").first ?? ""
    }

    @Test func sixtyFourSlowHandlersAreInFlightAtOnceOnTwoWorkerThreads() throws {
        let gate = HandlerGate()
        let (server, port) = try start(gate)
        defer { server.stop() }
        let clients = try slowClients(64, port: port)
        // A handler that blocked its worker thread would let at most 2 of them reach the gate.
        #expect(gate.waitEntered(64), "not every handler reached the gate while the others waited")
        let fast = try RawClient(port: port)
        fast.send(Array("GET /fast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        #expect(statusLine(fast) == "HTTP/1.1 200 OK", "a worker thread was not free while 64 handlers waited")
        gate.open()
        for client in clients { #expect(statusLine(client) == "HTTP/1.1 200 OK") }
    }

    @Test func stopAnswersHandlersStillRunningAtTheDrainDeadlineWith503AndCancelsThem() throws {
        let gate = HandlerGate()
        let (server, port) = try start(gate) { $0.drainTimeout = .milliseconds(200) }
        let clients = try slowClients(8, port: port)
        #expect(gate.waitEntered(8))
        server.stop()
        for client in clients { #expect(statusLine(client) == "HTTP/1.1 503 Service Unavailable") }
        // The handlers' late answers are dropped: the connections are gone and the daemon too.
        gate.open()
        #expect(gate.waitLeft(8))
        #expect(gate.cancelled.load(ordering: .relaxed) == 8)
    }

    @Test func stopWaitsForHandlersThatFinishWithinTheDrain() throws {
        let gate = HandlerGate()
        let (server, port) = try start(gate) { $0.drainTimeout = .seconds(30) }
        let clients = try slowClients(8, port: port)
        #expect(gate.waitEntered(8))
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.stop()
            stopped.signal()
        }
        // Never a false failure: a stop that did not wait would have answered 503 by the time the gate opens.
        #expect(stopped.wait(timeout: .now() + .milliseconds(300)) == .timedOut, "stop returned with handlers running")
        gate.open()
        for client in clients { #expect(statusLine(client) == "HTTP/1.1 200 OK") }
        #expect(stopped.wait(timeout: .now() + 30) == .success, "stop still waiting after every answer")
        #expect(gate.cancelled.load(ordering: .relaxed) == 0)
    }

    @Test func aHandlerStillRunningAtItsDeadlineIsAnswered503AndCancelledAndTheServerGoesOn() throws {
        let gate = HandlerGate()
        let (server, port) = try start(gate) { $0.handlerTimeout = .milliseconds(200) }
        defer { server.stop() }
        let clients = try slowClients(4, port: port)
        #expect(gate.waitEntered(4))
        // The gate stays shut: only the deadline can answer these (the read waits up to 30 s for it).
        for client in clients { #expect(statusLine(client) == "HTTP/1.1 503 Service Unavailable") }
        #expect(gate.cancelled.load(ordering: .relaxed) == 0, "the gate is still shut")
        gate.open()
        #expect(gate.waitLeft(4))
        #expect(gate.cancelled.load(ordering: .relaxed) == 4, "each overdue handler's task was cancelled")
        let fast = try RawClient(port: port)
        fast.send(Array("GET /fast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        #expect(statusLine(fast) == "HTTP/1.1 200 OK", "the server answers on after the deadline")
    }

    @Test func deinitWithHandlersRunningAnswersThem() throws {
        let gate = HandlerGate()
        var clients: [RawClient] = []
        do {
            let (server, port) = try start(gate) { $0.drainTimeout = .milliseconds(100) }
            clients = try slowClients(4, port: port)
            #expect(gate.waitEntered(4))
            withExtendedLifetime(server) {}
        }
        for client in clients { #expect(statusLine(client) == "HTTP/1.1 503 Service Unavailable") }
        gate.open()
        #expect(gate.waitLeft(4))
    }
}
