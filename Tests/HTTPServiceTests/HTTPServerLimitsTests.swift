import Foundation
import Glibc
import HTTPService
import TestSupport
import Testing

/// A raw TCP client on 127.0.0.1: sends what a test says, byte by byte if need be, and sees when the server hangs up.
final class RawClient {
    let fd: Int32

    /// Connects to `port` on 127.0.0.1.
    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw HTTPServerError.daemonStart("connect: errno \(errno)")
        }
    }

    deinit { close(fd) }

    /// Sends `bytes`; false once the server has closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Reads until the server closes the connection or `seconds` pass (then `nil`): what it answered.
    func readToClose(seconds: Int) -> [UInt8]? {
        var received: [UInt8] = []
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            guard poll(&poller, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return received }
            received += buffer[0..<count]
        }
        return nil
    }
}

/// The server's connection limits: per client, in total, header memory, and the idle timeout cutting a client that
/// trickles its request.
@Suite struct HTTPServerLimitsTests {
    private func start(_ configure: (inout HTTPServer.Configuration) -> Void) throws -> (HTTPServer, Int) {
        var configuration = HTTPServer.Configuration()
        configuration.rateLimiter = nil
        configure(&configuration)
        let server = try HTTPServer(
            listen: .tcp(host: "127.0.0.1", port: 0), configuration: configuration, handler: EchoHandler().handler)
        guard case .tcp(_, let port) = server.address else { throw HTTPServerError.daemonStart("no port") }
        return (server, Int(port))
    }

    @Test func aClientOverItsConnectionLimitIsClosedUnansweredUntilOneOfItsConnectionsEnds() throws {
        let (server, port) = try start { $0.maxConnectionsPerClient = 2 }
        defer { server.stop() }
        var held = [try RawClient(port: port), try RawClient(port: port)]
        // Each held connection has sent a request line, so libmicrohttpd has surely accepted both.
        for client in held { client.send(Array("GET / HTTP/1.1\r\n".utf8)) }
        let third = try RawClient(port: port)
        third.send(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(third.readToClose(seconds: 5) == [], "the third connection was answered")
        held.removeLast()
        // The slot comes back once libmicrohttpd has seen the close: wait for that event, bounded.
        var status = 0
        for _ in 0..<100 where status != 200 { status = try CurlReply.run(["http://127.0.0.1:\(port)/"]).status }
        #expect(status == 200)
    }

    @Test func overTheServerWideLimitAConnectionWaitsUntilOneEnds() throws {
        let (server, port) = try start { $0.maxConnections = 2 }
        defer { server.stop() }
        var held = [try RawClient(port: port), try RawClient(port: port)]
        for client in held { client.send(Array("GET / HTTP/1.1\r\n".utf8)) }
        let third = try RawClient(port: port)
        third.send(Array("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        #expect(third.readToClose(seconds: 1) == nil, "the third connection was answered while two were open")
        held.removeAll()
        let answer = third.readToClose(seconds: 10).map { String(decoding: $0, as: UTF8.self) } ?? "nothing"
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
    }

    @Test func aClientTricklingItsHeadersIsCutAtTheIdleTimeout() throws {
        let (server, port) = try start { $0.connectionTimeoutSeconds = 1 }
        defer { server.stop() }
        let slow = try RawClient(port: port)
        slow.send(Array("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8))
        let start = ContinuousClock.now
        #expect(slow.readToClose(seconds: 10) != nil, "still open after 10 s")
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(try CurlReply.run(["http://127.0.0.1:\(port)/"]).status == 200)
    }

    @Test func headersOverTheConnectionMemoryAreRefusedWithoutTheHandler() throws {
        let (server, port) = try start { $0.connectionMemoryBytes = 8 * 1024 }
        defer { server.stop() }
        let big = String(repeating: "a", count: 16 * 1024)
        let reply = try CurlReply.run(["-H", "X-Big: \(big)", "http://127.0.0.1:\(port)/"])
        #expect(reply.status >= 400 || reply.exitStatus != 0, "\(reply)")
        #expect(try CurlReply.run(["http://127.0.0.1:\(port)/"]).status == 200)
    }
}
