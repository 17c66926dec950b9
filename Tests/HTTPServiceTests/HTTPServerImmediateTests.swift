import Dispatch
import Foundation
import HTTPService
import Synchronization
import Testing

/// An immediate handler for the tests: `/now` answers on the worker thread, `/later` suspends its connection and keeps
/// the function that answers it for the test, anything else goes to the task handler (which answers `task`).
final class ImmediateRoutes: Sendable {
    typealias Answer = @Sendable (@escaping @Sendable (Bool) -> HTTPResponse) -> Void
    private let deferred = Mutex<[Answer]>([])
    /// Signalled once per request deferred.
    let suspended = DispatchSemaphore(value: 0)
    let taskCalls = Atomic<Int>(0)

    var immediate: HTTPImmediateHandler {
        { @Sendable request, deferral in
            switch request.path {
            case "/now": return .text(200, "now")
            case "/later":
                guard let answer = deferral.suspend() else { return .text(503, "stopping") }
                self.deferred.withLock { $0.append(answer) }
                self.suspended.signal()
                return nil
            default: return nil
            }
        }
    }

    var handler: HTTPHandler {
        { @Sendable _ in
            self.taskCalls.add(1, ordering: .relaxed)
            return .text(200, "task")
        }
    }

    /// Waits until `count` more requests were deferred (at most 30 s, then false).
    func waitSuspended(_ count: Int) -> Bool {
        let deadline = DispatchTime.now() + .seconds(30)
        return (0..<count).allSatisfy { _ in suspended.wait(timeout: deadline) == .success }
    }

    /// How the deferred answers' closures were called: `true` (sent) or `false` (dropped), in order.
    let deliveries = Mutex<[Bool]>([])

    /// Answers every deferred request from the calling thread with `text` (each answer function called twice: the
    /// second call must do nothing); returns how many.
    @discardableResult
    func answerAll(_ text: String) -> Int {
        let answers = deferred.withLock { list in
            defer { list = [] }
            return list
        }
        for answer in answers {
            for _ in 0..<2 {
                answer { delivered in
                    self.deliveries.withLock { $0.append(delivered) }
                    return .text(200, text)
                }
            }
        }
        return answers.count
    }

    /// The deliveries seen so far, and forgets them.
    func takeDeliveries() -> [Bool] {
        deliveries.withLock { list in
            defer { list = [] }
            return list
        }
    }
}

/// `HTTPImmediateHandler`: requests answered on the worker thread that read them, or deferred without a task and
/// answered later from any thread; everything else still goes to the task handler.
@Suite struct HTTPServerImmediateTests {
    private func start(
        _ routes: ImmediateRoutes, _ configure: (inout HTTPServer.Configuration) -> Void = { _ in }
    ) throws -> (HTTPServer, Int) {
        try loopbackServer(threads: 1, perClient: 64, immediate: routes.immediate, handler: routes.handler, configure)
    }

    /// A client that sent `GET path`.
    private func get(_ path: String, port: Int) throws -> RawClient {
        let client = try RawClient(port: port)
        client.send(Array("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        return client
    }

    /// The status line and body (`.text` answers end in a newline, dropped here) a client got before the server
    /// closed the connection.
    private func reply(_ client: RawClient) -> (status: String, body: String) {
        let answer = client.readToClose(seconds: 30).map { String(decoding: $0, as: UTF8.self) } ?? "nothing"
        let parts = answer.components(separatedBy: "\r\n\r\n")
        let body = parts.count > 1 ? parts[1].trimmingCharacters(in: .newlines) : ""
        return (answer.components(separatedBy: "\r\n").first ?? "", body)
    }

    @Test func anImmediateAnswerStartsNoTaskAndNilGoesToTheHandler() throws {
        let routes = ImmediateRoutes()
        let (server, port) = try start(routes)
        defer { server.stop() }
        #expect(reply(try get("/now", port: port)) == ("HTTP/1.1 200 OK", "now"))
        #expect(routes.taskCalls.load(ordering: .relaxed) == 0)
        #expect(reply(try get("/other", port: port)) == ("HTTP/1.1 200 OK", "task"))
        #expect(routes.taskCalls.load(ordering: .relaxed) == 1)
    }

    @Test func deferredRequestsWaitSuspendedWhileTheOneWorkerServesOthers() throws {
        let routes = ImmediateRoutes()
        let (server, port) = try start(routes)
        defer { server.stop() }
        let waiting = try (0..<8).map { _ in try get("/later", port: port) }
        #expect(routes.waitSuspended(8))
        // One worker thread: a deferral that blocked it would leave this request unread.
        #expect(reply(try get("/now", port: port)) == ("HTTP/1.1 200 OK", "now"))
        // Answered from this thread, not the worker's; the answer is made on the worker after the resume.
        #expect(routes.answerAll("later") == 8)
        for client in waiting { #expect(reply(client) == ("HTTP/1.1 200 OK", "later")) }
        #expect(routes.takeDeliveries() == Array(repeating: true, count: 8), "each made once, and sent")
        #expect(routes.taskCalls.load(ordering: .relaxed) == 0)
    }

    @Test func aDeferredRequestPastItsDeadlineIs503AndItsLateAnswerIsDropped() throws {
        let routes = ImmediateRoutes()
        let (server, port) = try start(routes) { $0.handlerTimeout = .milliseconds(200) }
        defer { server.stop() }
        let client = try get("/later", port: port)
        #expect(routes.waitSuspended(1))
        // Nothing answers it but the deadline (the read waits up to 30 s for it).
        #expect(reply(client).status == "HTTP/1.1 503 Service Unavailable")
        #expect(routes.answerAll("too late") == 1)
        #expect(routes.takeDeliveries() == [false], "the late answer was made once, knowing it is dropped")
        #expect(reply(try get("/now", port: port)) == ("HTTP/1.1 200 OK", "now"), "the server answers on")
    }

    @Test func aStopAnswersDeferredRequests503() throws {
        let routes = ImmediateRoutes()
        let (server, port) = try start(routes) { $0.drainTimeout = .milliseconds(200) }
        let clients = try (0..<4).map { _ in try get("/later", port: port) }
        #expect(routes.waitSuspended(4))
        server.stop()
        for client in clients { #expect(reply(client).status == "HTTP/1.1 503 Service Unavailable") }
        #expect(routes.answerAll("after the stop") == 4, "late answers after a stop are dropped")
        #expect(routes.takeDeliveries() == Array(repeating: false, count: 4))
    }
}
