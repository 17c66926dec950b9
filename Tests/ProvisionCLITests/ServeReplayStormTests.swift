import Foundation
import Ledger
import TestSupport
import Testing

/// The replay storm of issue 44 at full scale: four `provision serve` processes on one PostgreSQL ledger behind
/// docs/serve.md's nginx site (TLS), 100 copies of each of 50 fresh tap URLs fired in parallel by one curl with many
/// connections at once; each URL is `valid` exactly once, every other answer `replayed`, nothing is a 5xx, and every
/// answer fits the served OpenAPI document.
@Suite struct ServeReplayStormTests {
    static let tags = 50
    static let copies = 100
    /// curl's connections at once (its `--parallel-max` allows 300 at most).
    static let connections = 200

    static func uid(_ n: Int) -> [UInt8] { [0x04, 0x5C, 0x12, 0x00, 0x00, 0x00, UInt8(n)] }

    @Test(.timeLimit(.minutes(5))) func fourProcessesOnOnePostgreSQLLedgerBehindNginxAcceptEachTapOnce() async throws {
        try #require(geteuid() == 0, "the throwaway nginx runs its worker as root (the sockets are 0660)")
        let job = try await SUNTapJob()
        let rows = (4...Self.tags).map {
            RowInput(row: $0, fields: SUNTapJob.fields($0), messageSHA256: [], messageLength: 0)
        }
        try await Ledger.open(path: job.folder.ledger.path).addRows(job: job.folder.job, rows: rows)
        for n in 1...Self.tags { try await job.markDone(uid: Self.uid(n)) }
        let urls = try (1...Self.tags).map { try job.tag(uid: Self.uid($0), row: $0).tap() }
        // Each process's bucket for a tag (--uid-burst, default 10) would answer replayed copies past 10 with 429
        // (about 43 of 99 got through): this storm is about the counter race, so one bucket holds all the copies of a
        // tag. The per-client limit does not bite: the documented site forwards `X-Forwarded-For: $remote_addr`,
        // here 127.0.0.1 (curl over TCP), which serve trusts as loopback. (nginx listening on a Unix socket would
        // forward `unix:`, one untrusted client.)
        let extra =
            try VerifyURLRaceTests.ledgerArguments(.postgresql, folder: job.folder) + ["--uid-burst", "\(Self.copies)"]
        let folder = try Fixtures.temporaryDirectory("storm")
        var servers: [ServeProcess] = []
        for index in 1...4 {
            let socket = "unix:" + folder.appendingPathComponent("s\(index).sock").path
            servers.append(try await ServeProcess(job, listen: socket, extra))
        }
        let site = try ServeDocSite(
            folder: folder, upstreams: servers.map { String($0.listen.dropFirst(5)) }, connections: 1024)
        let nginx = try ServeNginxTests.Nginx(folder: folder, configuration: site.configuration)
        let ready = try await ServeNginxTests.https(site, "/v1/openapi.json", whileRunning: nginx)
        #expect(ready.status == 200, "\(ready)")
        // Every copy of every URL in one list, shuffled, so copies of one tap arrive on different connections.
        var generator = TestSeed.generator()
        let requests = urls.flatMap { Array(repeating: $0, count: Self.copies) }.shuffled(using: &generator)
        let clock = ContinuousClock()
        let start = clock.now
        let answers = try await Self.fire(requests, site: site, folder: folder)
        let elapsed = clock.now - start
        print("storm: \(requests.count) requests, \(Self.connections) connections, \(elapsed), seed \(TestSeed.value)")
        let seed = "seed \(TestSeed.value)"
        #expect(answers.count == requests.count, "\(seed)")
        let statuses = answers.reduce(into: [Int: Int]()) { $0[$1.status, default: 0] += 1 }
        let errorLog = (try? String(contentsOfFile: folder.path + "/error.log", encoding: .utf8)) ?? ""
        #expect(statuses == [200: requests.count], "\(statuses), \(seed), nginx: \(errorLog.suffix(2000))")
        for (index, url) in urls.enumerated() {
            let verdicts = answers.filter { $0.url == url }.reduce(into: [String: Int]()) {
                $0[$1.verdict, default: 0] += 1
            }
            #expect(verdicts == ["valid": 1, "replayed": Self.copies - 1], "tag \(index + 1): \(verdicts), \(seed)")
        }
        // Every process took part, and serve's own counts agree with what curl saw.
        var total: [String: Int] = [:]
        for (index, server) in servers.enumerated() {
            let counts = try Self.verdicts(try await server.get("/metrics").body)
            #expect(counts.values.reduce(0, +) > 0, "serve \(index + 1) answered no tap: \(counts)")
            total.merge(counts, uniquingKeysWith: +)
        }
        #expect(total == ["valid": Self.tags, "replayed": requests.count - Self.tags], "\(total), \(seed)")
        let document = try await servers[0].get("/v1/openapi.json").body
        try await ServeProcess.check(answers.map(\.checked), against: document)
        for server in servers { #expect(try await server.child.stop() == 0) }
    }

    /// The `provision_serve_verdicts_total` samples of a `/metrics` text, summed by verdict (zeros left out).
    static func verdicts(_ metrics: String) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in metrics.split(separator: "\n") where line.hasPrefix("provision_serve_verdicts_total{") {
            let verdict = try #require(line.split(separator: "verdict=\"").last?.split(separator: "\"").first)
            let value = try #require(line.split(separator: " ").last.flatMap { Int($0) }, "\(line)")
            if value > 0 { counts[String(verdict), default: 0] += value }
        }
        return counts
    }

    /// One answer of the storm: the tap URL asked about, the HTTP status, the verdict header, and what the OpenAPI
    /// check reads (content type, the headers the document names, the body).
    struct Answer {
        var url: String
        var status: Int
        var verdict: String
        var type: String
        var cacheControl: String
        var body: String

        /// The answer as `ServeProcess.check` takes it.
        var checked: [String: Any] {
            var headers = ["content-type": type]
            if !verdict.isEmpty { headers["provision-verdict"] = verdict }
            if !cacheControl.isEmpty { headers["cache-control"] = cacheControl }
            return [
                "method": "get", "path": "/v1/verify", "status": status, "type": type, "headers": headers, "body": body,
            ]
        }
    }

    /// `GET /v1/verify?url=…` for each of `urls` through the site, by one curl with `connections` transfers at once
    /// (`--parallel`, connections kept open between transfers), each body in a file of its own; one answer per
    /// request, in any order.
    static func fire(_ urls: [String], site: ServeDocSite, folder: URL) async throws -> [Answer] {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        var config = ""
        var asked: [String: String] = [:]
        for url in Set(urls) {
            let encoded = try #require(url.addingPercentEncoding(withAllowedCharacters: allowed))
            asked[encoded] = url
        }
        let base = site.target("/v1/verify")
        let bodies = folder.appendingPathComponent("bodies")
        try FileManager.default.createDirectory(at: bodies, withIntermediateDirectories: true)
        for (index, url) in urls.enumerated() {
            let encoded = try #require(url.addingPercentEncoding(withAllowedCharacters: allowed))
            config += "url = \"\(base.last!)?url=\(encoded)\"\noutput = \"\(bodies.path)/\(index)\"\n"
        }
        let file = folder.appendingPathComponent("storm.curl")
        try Data(config.utf8).write(to: file)
        let arguments =
            Array(base.dropLast()) + [
                "-s", "--parallel", "--parallel-immediate", "--parallel-max", String(connections), "--max-time", "60",
                "-w",
                "%{http_code}\\t%header{provision-verdict}\\t%{content_type}\\t%header{cache-control}\\t"
                    + "%{filename_effective}\\t%{url}\\n", "--config", file.path,
            ]
        let outcome = try await onThread {
            try ClientScript.run("/usr/bin/curl", arguments, timeoutSeconds: 240)
        }
        return outcome.stdout.split(separator: "\n").compactMap { line in
            let words = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard words.count == 6, let query = words[5].split(separator: "?url=").last else { return nil }
            let body = (try? String(contentsOfFile: words[4], encoding: .utf8)) ?? ""
            return Answer(
                url: asked[String(query)] ?? String(query), status: Int(words[0]) ?? 0, verdict: words[1],
                type: words[2], cacheControl: words[3], body: body)
        }
    }
}
