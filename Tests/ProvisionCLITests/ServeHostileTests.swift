import Foundation
import TestSupport
import Testing

/// `provision serve` under hostile clients: random bytes, a client trickling its headers, thousands of parallel
/// connections and 1 MB URLs. The service stays up, answers `/healthz` throughout, and its RSS stays bounded.
@Suite struct ServeHostileTests {
    /// The process's resident set in KiB, from /proc/PID/status.
    static func rssKiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    @Test func randomBytesSlowHeadersManyConnectionsAndHugeURLsLeaveItUpAndBounded() async throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["HOSTILE_SEED"] ?? "") ?? UInt64.random(in: 1...1 << 40)
        print("ServeHostileTests seed \(seed) (HOSTILE_SEED=\(seed) repeats it)")
        let job = try await SUNTapJob()
        let server = try await ServeProcess(
            job, ["--connection-timeout", "2", "--max-connections", "19000", "--per-client-connections", "19000"])
        for _ in 0..<20 { #expect(try await server.get("/healthz").status == 200) }
        let before = try Self.rssKiB(server.child.pid)
        let port = String(server.listen.split(separator: ":").last ?? "")
        let outcome = try await onThread {
            try ClientScript.run(
                "/usr/bin/env", ["python3", "-c", Self.script, port, String(seed)], timeoutSeconds: 300)
        }
        print("ServeHostileTests: \(outcome.stdout)")
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(try await server.get("/healthz").status == 200)
        let after = try Self.rssKiB(server.child.pid)
        print("ServeHostileTests: RSS \(before) KiB before, \(after) KiB after")
        #expect(after < before + 64 * 1024, "RSS grew from \(before) to \(after) KiB")
        #expect(try await server.child.stop() == 0)
    }

    /// argv: port, seed. Prints what it reached; exits 1 when /healthz failed at some point.
    static let script = #"""
        import random, resource, socket, sys, time
        port, seed = int(sys.argv[1]), int(sys.argv[2])
        rng = random.Random(seed)
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        failures = []
        def healthz(phase):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                data = b""
                while True:
                    chunk = s.recv(4096)
                    if not chunk: break
                    data += chunk
                s.close()
                if not data.startswith(b"HTTP/1.1 200"): failures.append(phase + ": " + repr(data[:60]))
            except Exception as error:
                failures.append(phase + ": " + repr(error))
        def drain(s):
            try:
                s.settimeout(10)
                while s.recv(65536): pass
            except Exception: pass
            s.close()
        # Random bytes.
        for _ in range(200):
            s = socket.create_connection(("127.0.0.1", port))
            try: s.sendall(bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 4096))))
            except OSError: pass
            drain(s)
        healthz("after random bytes")
        # A slow client: part of a header, then one byte at a time, slower than the timeout (2 s).
        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        start = time.monotonic()
        slow.settimeout(10)
        try: cut = slow.recv(1) == b""
        except OSError: cut = True
        waited = time.monotonic() - start
        if not cut or waited > 8: failures.append("slow client not cut (waited %.1f s)" % waited)
        healthz("after the slow client")
        # 1 MB URLs.
        for _ in range(5):
            s = socket.create_connection(("127.0.0.1", port))
            try: s.sendall(b"GET /v1/verify?url=" + b"A" * (1 << 20) + b" HTTP/1.1\r\nHost: x\r\n\r\n")
            except OSError: pass
            drain(s)
        healthz("after 1 MB URLs")
        # Many parallel connections, each with half a request.
        wanted = min(10000, hard - 200)
        held = []
        try:
            while len(held) < wanted:
                s = socket.create_connection(("127.0.0.1", port))
                s.sendall(b"GET /v1/verify?url=x HTTP/1.1\r\n")
                held.append(s)
                if len(held) % 2500 == 0: healthz("with %d connections open" % len(held))
        except OSError as error:
            print("opening stopped at %d: %r" % (len(held), error))
        healthz("with %d connections open" % len(held))
        reached = len(held)
        for s in held: s.close()
        healthz("after closing them")
        print("parallel connections reached %d; slow client cut after %.1f s" % (reached, waited))
        print("\n".join(failures))
        sys.exit(1 if failures else 0)
        """#
}
