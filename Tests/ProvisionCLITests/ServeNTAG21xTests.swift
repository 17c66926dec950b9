import Foundation
import TestSupport
import Testing

/// `provision serve` on an NTAG21x job (a MAC in the URL next to the chip's UID and counter mirror), as a brand runs
/// it: `provision run` on the simulator, taps read like a phone, `serve` on the run's ledger and curl; every answer
/// checked against the served OpenAPI document.
@Suite(.serialized) struct ServeNTAG21xTests {
    static let uid = "04000000000001"
    let job: AuthTapJob
    let reader: String

    init() async throws {
        job = try AuthTapJob(extra: #", "public": ["sku"]"#)
        reader = job.folder.sim(uid: Self.uid, options: "count=2")
        let run = try await job.run(reader: reader)
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// The counter the chip mirrored into `url`.
    static func counter(_ url: String) throws -> Int {
        let shown = try #require(url.range(of: #"x[0-9A-F]{6}&"#, options: .regularExpression), "\(url)")
        return try #require(Int(url[shown].dropFirst().dropLast(), radix: 16))
    }

    @Test func aTapIsValidThenReplayedATamperedOneInvalidAndAJumpSuspicious() async throws {
        let server = try await ServeProcess(job)
        let first = try await job.tap(reader: reader).url
        let valid = try await server.verify(first)
        #expect(valid.status == 200 && valid.headers["provision-verdict"] == "valid", "\(valid)")
        let answer = try ServeAPITests.object(valid)
        #expect(answer["counter"] as? Int == (try Self.counter(first)) && answer["job"] as? String == "t", "\(answer)")
        #expect(answer["product"] as? [String: String] == ["sku": "SKU-1"], "only the public field: \(answer)")
        let replayed = try await server.verify(first)
        #expect(replayed.headers["provision-verdict"] == "replayed", "\(replayed)")
        #expect(try ServeAPITests.object(replayed)["counter"] as? Int == (try Self.counter(first)))
        // A changed MAC digit and a UID outside the job: the same answer, naming nothing.
        let badMAC = try await server.verify(String(first.dropLast()) + (first.last == "0" ? "1" : "0"))
        let stranger = try await server.verify(first.replacingOccurrences(of: Self.uid, with: "04000000000099"))
        for invalid in [badMAC, stranger] {
            #expect(invalid.status == 200 && invalid.headers["provision-verdict"] == "invalid", "\(invalid)")
            let refused = try ServeAPITests.object(invalid)
            #expect(refused["counter"] is NSNull && refused["job"] is NSNull, "\(refused)")
            #expect((refused["product"] as? [String: String])?.isEmpty == true, "\(refused)")
            #expect(!invalid.body.contains("0400000000") && !invalid.body.contains("SKU"), "\(invalid.body)")
        }
        #expect(badMAC.body == stranger.body, "the answers must not tell a bad MAC from a UID outside the job")
        // The counter is outside the MAC: FFFFFF keeps the MAC valid but jumps beyond the window; not stored.
        let jump = try await server.verify(AuthTapJob.url(first, counter: "FFFFFF"))
        #expect(jump.status == 200 && jump.headers["provision-verdict"] == "suspicious", "\(jump)")
        let jumped = try ServeAPITests.object(jump)
        #expect(jumped["counter"] as? Int == 0xFF_FFFF && jumped["job"] as? String == "t", "\(jumped)")
        let next = try await server.verify(try await job.tap(reader: reader).url)
        #expect(next.headers["provision-verdict"] == "valid", "the jump was not stored: \(next)")
        try await server.checkAnswersAgainstOpenAPI()
        #expect(try await server.child.stop() == 0)
        // One log line per answer: verdict, job and the UID's keyed hash, never the UID or the URL.
        let lines = server.child.stderr.split(separator: "\n").filter { $0.contains("GET /v1/verify 200") }
        #expect(lines.count == 6, "\(server.child.stderr)")
        let hashes = lines.map { line in line.split(separator: " ").first { $0.hasPrefix("uid=") }.map(String.init) }
        let hash = try #require(hashes[0])
        #expect(hash.count == 20 && hashes == [hash, hash, "uid=-", "uid=-", hash, hash], "\(lines)")
        #expect(lines[4].contains("verdict=suspicious job=t "), "\(lines[4])")
        for secret in [Self.uid, "04000000000099", "example.com", "m="] {
            #expect(!server.child.stderr.contains(secret), "the log holds '\(secret)': \(server.child.stderr)")
        }
    }

    @Test func replayedAndSuspiciousAnswersOverTheUIDBucketAre429ButAValidTapIsAlwaysAnswered() async throws {
        let server = try await ServeProcess(job, ["--uid-burst", "2", "--uid-per-minute", "0"])
        let first = try await job.tap(reader: reader).url
        #expect(try await server.verify(first).headers["provision-verdict"] == "valid")
        #expect(try await server.verify(first).headers["provision-verdict"] == "replayed")
        let replayed = try await server.verify(first)
        #expect(replayed.status == 429 && replayed.headers["retry-after"] != nil, "\(replayed)")
        let suspicious = try await server.verify(AuthTapJob.url(first, counter: "FFFFFF"))
        #expect(suspicious.status == 429, "a suspicious answer names a genuine UID too: \(suspicious)")
        let next = try await server.verify(try await job.tap(reader: reader).url)
        #expect(next.status == 200 && next.headers["provision-verdict"] == "valid", "\(next)")
        try await server.checkAnswersAgainstOpenAPI()
        #expect(try await server.child.stop() == 0)
    }

    @Test func counterWindowSetsTheLargestRiseAccepted() async throws {
        let server = try await ServeProcess(job, ["--counter-window", "2"])
        let first = try await job.tap(reader: reader).url
        let counter = try Self.counter(first)
        #expect(try await server.verify(first).headers["provision-verdict"] == "valid")
        let hex = { (value: Int) in String(("00000" + String(value, radix: 16, uppercase: true)).suffix(6)) }
        // Three above the last one accepted is over a window of 2: suspicious, not stored; two above is valid.
        let three = try await server.verify(AuthTapJob.url(first, counter: hex(counter + 3)))
        #expect(three.headers["provision-verdict"] == "suspicious", "\(three)")
        let two = try await server.verify(AuthTapJob.url(first, counter: hex(counter + 2)))
        #expect(two.headers["provision-verdict"] == "valid", "\(two)")
        #expect(try await server.child.stop() == 0)
    }

    @Test func counterWindowWithoutAnNTAG21xJobIsAUsageError() async throws {
        let sun = try await SUNTapJob()
        let (folder, env) = (sun.folder, sun.env)
        let refused = try await onThread {
            try ProvisionProcess.run(
                [
                    "serve", "--listen", "tcp:127.0.0.1:0", "--manifest", "job.json", "--allow-root",
                    "--counter-window", "5",
                ],
                directory: folder.url, environment: env)
        }
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("--counter-window") && refused.stderr.contains("NTAG21x"), "\(refused.stderr)")
    }
}
