import HTTPService
import Synchronization
import TestSupport
import Testing

/// `--trusted-clients`: which peers are not limited, and which `X-Forwarded-For` hop a trusted proxy's request is
/// limited as.
@Suite struct TrustedClientsTests {
    @Test func parsesNetworksAndRefusesJunk() throws {
        let trusted = try TrustedClients(parsing: "10.0.0.0/8, 2001:db8::/32,unix")
        #expect(trusted.trusts("10.200.3.4") && !trusted.trusts("11.0.0.1"))
        #expect(trusted.trusts("2001:db8::7") && !trusted.trusts("2001:db9::7"))
        #expect(trusted.trusts("::ffff:10.1.1.1") && trusted.trusts("unix"))
        #expect(!TrustedClients.loopback.trusts("192.168.1.1") && TrustedClients.loopback.trusts("127.9.9.9"))
        #expect(TrustedClients.loopback.trusts("::1") && TrustedClients.loopback.trusts("unix"))
        for junk in ["10.0.0.0/33", "nope", "1.2.3.4/x", "::/129"] {
            #expect(throws: TrustedClients.BadNetwork.self) { try TrustedClients(parsing: junk) }
        }
    }

    @Test func theLastUntrustedHopIsTheClientAndATrustedPeerAloneIsNotLimited() throws {
        let trusted = try TrustedClients(parsing: "127.0.0.0/8,10.0.0.0/8")
        #expect(trusted.limitedClient(peer: "192.0.2.1", forwardedFor: ["203.0.113.9"]) == "192.0.2.1")
        #expect(trusted.limitedClient(peer: "127.0.0.1", forwardedFor: []) == nil)
        #expect(trusted.limitedClient(peer: "127.0.0.1", forwardedFor: ["10.1.1.1"]) == nil)
        // The client's own claim (1.1.1.1) is left of the hop the proxies saw.
        #expect(
            trusted.limitedClient(peer: "127.0.0.1", forwardedFor: ["1.1.1.1, 203.0.113.9", "10.0.0.5"])
                == "203.0.113.9")
        #expect(trusted.limitedClient(peer: "127.0.0.1", forwardedFor: ["::ffff:203.0.113.9"]) == "203.0.113.9")
        #expect(trusted.limitedClient(peer: "127.0.0.1", forwardedFor: ["garbage"]) == "garbage")
    }

    @Test func behindATrustedProxyEachForwardedClientHasItsOwnBucket() throws {
        let limiter = RateLimiter(policy: .init(perSecond: 0, burst: 1)) { .zero }
        var configuration = HTTPServer.Configuration()
        configuration.rateLimiter = limiter
        let server = try HTTPServer(
            listen: .tcp(host: "127.0.0.1", port: 0), configuration: configuration, handler: EchoHandler().handler)
        defer { server.stop() }
        guard case .tcp(_, let port) = server.address else { throw HTTPServerError.daemonStart("no port") }
        let base = "http://127.0.0.1:\(port)/"
        func status(_ forwardedFor: String?) throws -> Int {
            try CurlReply.run((forwardedFor.map { ["--header", "X-Forwarded-For: \($0)"] } ?? []) + [base]).status
        }
        // Loopback itself is trusted: never limited.
        for _ in 0..<3 { #expect(try status(nil) == 200) }
        #expect(try status("203.0.113.9") == 200)
        #expect(try status("203.0.113.9") == 429)
        // A spoofed hop to the left does not buy a new bucket.
        #expect(try status("198.51.100.1, 203.0.113.9") == 429)
        #expect(try status("203.0.113.10") == 200)
        #expect(try status("127.0.0.2") == 200)
    }
}
