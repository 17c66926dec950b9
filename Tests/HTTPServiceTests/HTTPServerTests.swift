import Foundation
import HTTPService
import Synchronization
import TestSupport
import Testing

/// Echoes the request as lines (`method`, `path`, one `q name=value` per query item, header and body), counting calls.
final class EchoHandler: Sendable {
    let calls = Atomic<Int>(0)

    var handler: HTTPHandler {
        { @Sendable request in
            self.calls.add(1, ordering: .relaxed)
            var lines = ["method \(request.method)", "path \(request.path)"]
            lines += request.query.map { "q \($0.name)=\($0.value ?? "<none>")" }
            lines.append("content-type \(request.header("content-type") ?? "<none>")")
            lines.append("body \(String(decoding: request.body, as: UTF8.self))")
            return .text(200, lines.joined(separator: "\n"), headers: [.init("X-Echo", "yes")])
        }
    }
}

@Suite struct HTTPServerTests {
    private func start(_ configure: (inout HTTPServer.Configuration) -> Void = { _ in }) throws -> (
        HTTPServer, EchoHandler, String
    ) {
        var configuration = HTTPServer.Configuration()
        configure(&configuration)
        let echo = EchoHandler()
        let server = try HTTPServer(
            listen: .tcp(host: "127.0.0.1", port: 0), configuration: configuration, handler: echo.handler)
        guard case .tcp(_, let port) = server.address else { throw HTTPServerError.daemonStart("no port") }
        return (server, echo, "http://127.0.0.1:\(port)")
    }

    @Test func portZeroReportsThePortItPicked() throws {
        let (server, _, base) = try start()
        guard case .tcp(let host, let port) = server.address else { throw HTTPServerError.daemonStart("not tcp") }
        #expect(host == "127.0.0.1" && port != 0)
        #expect(try CurlReply.run([base + "/"]).status == 200)
    }

    @Test func getDecodesTheQueryInOrder() throws {
        let (server, echo, base) = try start()
        defer { server.stop() }
        let reply = try CurlReply.run([base + "/v1/ver%69fy?p=a%20b+c&flag&p=second&empty=&k%41y=%C3%A9"])
        #expect(reply.status == 200)
        #expect(reply.headers["x-echo"] == "yes")
        #expect(
            reply.body
                == """
                method GET
                path /v1/verify
                q p=a b c
                q flag=<none>
                q p=second
                q empty=
                q kAy=é
                content-type <none>
                body \n
                """)
        #expect(echo.calls.load(ordering: .relaxed) == 1)
    }

    @Test func postHandsTheJSONBodyToTheHandler() throws {
        let (server, _, base) = try start()
        defer { server.stop() }
        let json = #"{"url":"https://example.com/t?p=1"}"#
        let reply = try CurlReply.run([
            "-H", "Content-Type: application/json", "--data-binary", json, base + "/v1/verify",
        ])
        #expect(reply.status == 200)
        #expect(reply.body.contains("method POST\n"))
        #expect(reply.body.contains("content-type application/json\n"))
        #expect(reply.body.contains("body \(json)\n"))
    }

    @Test func aTargetOver2KiBIs414WithoutTheHandler() throws {
        let (server, echo, base) = try start()
        defer { server.stop() }
        let path = "/v1/verify?url="  // 15 bytes
        let fits = try CurlReply.run([base + path + String(repeating: "a", count: 2048 - path.utf8.count)])
        #expect(fits.status == 200)
        let over = try CurlReply.run([base + path + String(repeating: "a", count: 2049 - path.utf8.count)])
        #expect(over.status == 414)
        #expect(echo.calls.load(ordering: .relaxed) == 1)
    }

    @Test func aBodyOver4KiBIs413WithoutTheHandler() throws {
        let (server, echo, base) = try start()
        defer { server.stop() }
        let fits = try CurlReply.run(["--data-binary", String(repeating: "b", count: 4096), base + "/"])
        #expect(fits.status == 200)
        #expect(fits.body.contains("body " + String(repeating: "b", count: 4096)))
        let over = try CurlReply.run(["--data-binary", String(repeating: "b", count: 4097), base + "/"])
        #expect(over.status == 413)
        #expect(echo.calls.load(ordering: .relaxed) == 1)
    }

    @Test func aChunkedBodyOver4KiBIs413WithoutTheHandler() throws {
        let (server, echo, base) = try start()
        defer { server.stop() }
        let body = String(repeating: "c", count: 6000)
        let over = try CurlReply.run(["-H", "Transfer-Encoding: chunked", "--data-binary", body, base + "/"])
        #expect(over.status == 413)
        let endless = String(repeating: "c", count: 16 * 4096 + 1)
        let closed = try CurlReply.run(["-H", "Transfer-Encoding: chunked", "--data-binary", endless, base + "/"])
        #expect(closed.status == 0 && closed.exitStatus != 0)  // closed unanswered: the rest is never read
        #expect(echo.calls.load(ordering: .relaxed) == 0)
    }

    @Test func anUnsupportedMethodIs405AndAQueryWithNULIs400() throws {
        let (server, echo, base) = try start()
        defer { server.stop() }
        let delete = try CurlReply.run(["-X", "DELETE", base + "/"])
        #expect(delete.status == 405)
        #expect(delete.headers["allow"] == "GET, HEAD, POST")
        #expect(try CurlReply.run([base + "/?p=v%00w"]).status == 400)
        #expect(try CurlReply.run([base + "/?p=%FF"]).status == 400)
        #expect(echo.calls.load(ordering: .relaxed) == 0)
    }

    @Test func theRateLimitAnswers429WithRetryAfterUntilTheClockMoves() throws {
        let time = Mutex<Duration>(.zero)
        let limiter = RateLimiter(policy: .init(perSecond: 0.5, burst: 2)) { time.withLock { $0 } }
        let (server, echo, base) = try start {
            $0.rateLimiter = limiter
            $0.trustedClients = try! TrustedClients(parsing: "")
        }
        defer { server.stop() }
        #expect(try CurlReply.run([base + "/"]).status == 200)
        #expect(try CurlReply.run([base + "/"]).status == 200)
        let limited = try CurlReply.run([base + "/"])
        #expect(limited.status == 429)
        #expect(limited.headers["retry-after"] == "2")
        #expect(echo.calls.load(ordering: .relaxed) == 2)
        time.withLock { $0 = .seconds(2) }
        #expect(try CurlReply.run([base + "/"]).status == 200)
        #expect(try CurlReply.run([base + "/"]).status == 429)
    }

    @Test func anUnlimitedPathIsAnsweredWhileTheClientIsLimited() throws {
        let limiter = RateLimiter(policy: .init(perSecond: 0, burst: 1)) { .zero }
        let (server, _, base) = try start {
            $0.rateLimiter = limiter
            $0.trustedClients = try! TrustedClients(parsing: "")
            $0.unlimitedPaths = ["/healthz"]
        }
        defer { server.stop() }
        #expect(try CurlReply.run([base + "/"]).status == 200)
        #expect(try CurlReply.run([base + "/"]).status == 429)
        #expect(try CurlReply.run([base + "/healthz"]).status == 200)
        #expect(try CurlReply.run([base + "/healthz?probe=1"]).status == 200)
        #expect(try CurlReply.run([base + "/"]).status == 429)
    }

    @Test func aUnixSocketServesWithMode0660AndIsRemovedOnStop() throws {
        let folder = try Fixtures.temporaryDirectory("http")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("serve.sock").path
        let echo = EchoHandler()
        let server = try HTTPServer(listen: .unix(path: path), handler: echo.handler)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o660)
        let reply = try CurlReply.run(["--unix-socket", path, "http://localhost/v1/verify?x=1"])
        #expect(reply.status == 200)
        #expect(reply.body.contains("q x=1\n"))
        server.stop()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try CurlReply.run(["--unix-socket", path, "http://localhost/"]).exitStatus == 7)
    }

    @Test func afterStopConnectionsAreRefused() throws {
        let (server, _, base) = try start()
        #expect(try CurlReply.run([base + "/"]).status == 200)
        server.stop()
        server.stop()  // idempotent
        let refused = try CurlReply.run([base + "/"])
        #expect(refused.exitStatus == 7)  // curl: could not connect
    }

    @Test func deinitStopsTheServer() throws {
        var base = ""
        do {
            let (server, _, url) = try start()
            base = url
            #expect(try CurlReply.run([base + "/"]).status == 200)
            withExtendedLifetime(server) {}
        }
        #expect(try CurlReply.run([base + "/"]).exitStatus == 7)
    }
}
