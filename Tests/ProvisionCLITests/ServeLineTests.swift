import Foundation
import TestSupport
import Testing

/// `provision serve` on the line's ledger: `/metrics` as promtool reads it (taps and the line), and two serve
/// processes on one SQLite ledger accepting a tap once.
@Suite struct ServeLineTests {
    static let uid: [UInt8] = [0x04, 0x5C, 0x11, 0x00, 0x00, 0x00, 0x03]

    @Test func metricsPassPromtoolAndCountTapsAndTheLine() async throws {
        let job = try await SUNTapJob()
        try await job.markDone(uid: Self.uid)
        let tag = try job.tag(uid: Self.uid)
        let server = try await ServeProcess(job)
        let url = try tag.tap()
        #expect(try await server.verify(url).headers["provision-verdict"] == "valid")
        #expect(try await server.verify(url).headers["provision-verdict"] == "replayed")
        #expect(try await server.verify("https://e.io/t/SKU-1?p=00&m=00").headers["provision-verdict"] == "invalid")
        let metrics = try await server.get("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        let text = metrics.body
        for line in [
            #"provision_serve_verdicts_total{job="t",verdict="valid"} 1"#,
            #"provision_serve_verdicts_total{job="t",verdict="replayed"} 1"#,
            #"provision_serve_verdicts_total{job="",verdict="invalid"} 1"#,
            #"provision_serve_request_duration_seconds_bucket{le="+Inf"} 3"#,
            "provision_serve_request_duration_seconds_count 3", "provision_serve_ledger_errors_total 0",
            #"provision_line_rows{job="t",state="done"} 1"#, #"provision_line_rows{job="t",state="pending"} 2"#,
            #"provision_line_station_tags_done{job="t",station="sim0"} 1"#,
            #"provision_line_first_pass_yield_ratio{job="t"} 1.0"#,
        ] {
            #expect(text.contains(line + "\n"), "\(line) not in\n\(text)")
        }
        #expect(text.contains(#"provision_line_tags_per_hour{job="t"} "#))
        let folder = try Fixtures.temporaryDirectory("metrics")
        let file = folder.appendingPathComponent("metrics.txt")
        try Data(text.utf8).write(to: file)
        let check = try await onThread {
            try ClientScript.run("/bin/sh", ["-c", "promtool check metrics < '\(file.path)'"], timeoutSeconds: 60)
        }
        #expect(check.status == 0, "promtool: \(check.stdout)\(check.stderr)")
        try await server.checkAnswersAgainstOpenAPI()
        #expect(try await server.child.stop() == 0)
    }

    /// The same fresh tap fired at two serve processes on one ledger file, 8 times at once: one valid answer. The
    /// tag's 24 taps go past the default per-UID bucket, which this test does not measure: it is raised.
    @Test func twoServeProcessesOnOneSQLiteLedgerAcceptAFreshTapOnce() async throws {
        let job = try await SUNTapJob()
        try await job.markDone(uid: Self.uid)
        let tag = try job.tag(uid: Self.uid)
        let bucket = ["--uid-burst", "100"]
        let servers = [
            try await ServeProcess(job, listen: "tcp:127.0.0.1:0", bucket),
            try await ServeProcess(job, listen: "tcp:127.0.0.1:0", bucket),
        ]
        for _ in 0..<3 {
            let url = try tag.tap()
            let verdicts = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<8 {
                    let server = servers[index % 2]
                    group.addTask { try await server.verify(url).headers["provision-verdict"] ?? "none" }
                }
                return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(verdicts == ["valid": 1, "replayed": 7], "\(verdicts)")
        }
        for server in servers {
            try await server.checkAnswersAgainstOpenAPI()
            #expect(try await server.child.stop() == 0)
        }
    }
}
