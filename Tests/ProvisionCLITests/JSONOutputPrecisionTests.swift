import Foundation
import TestSupport
import Testing

/// Every `--json` document and `summary.json` the built binary writes: numbers carry at most the
/// decimals `JSONPrecision` gives their kind (no float noise such as `0.30000000000000004`).
@Suite(.serialized) struct JSONOutputPrecisionTests {
    /// Decimals per key across the documents; every other number must be whole.
    static let decimals = [
        "wall_seconds": 6, "airtime_microseconds": 1, "mean": 1,
        "p50_ms": 3, "p95_ms": 3, "max_ms": 3, "measured_ms_per_tag": 3, "airtime_ms_per_tag": 3,
        "tags_per_hour": 1, "first_pass_yield": 4, "measured_over_airtime": 4, "exchanges_per_tag": 2,
    ]

    /// Runs `provision arguments` and returns its stdout after checking the exit status.
    private func output(_ arguments: [String], in folder: URL? = nil, status: Int32 = 0) throws -> String {
        let outcome = try ProvisionProcess.run(arguments, directory: folder)
        #expect(outcome.status == status, "\(arguments): \(outcome.stderr)")
        return outcome.stdout
    }

    private func expectRounded(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let excess = JSONNumbers(text).excess(Self.decimals)
        #expect(excess.isEmpty, "\(what): \(excess)", sourceLocation: sourceLocation)
        #expect(!JSONNumbers(text).numbers.isEmpty, "\(what) has numbers", sourceLocation: sourceLocation)
    }

    @Test func tagCommandsPrintRoundedTimes() throws {
        let store = try SimStore()
        defer { store.remove() }
        let write = try output(["write", "--reader", store.spec(), "--uri", "https://example.com", "--lock", "--json"])
        expectRounded(write, "write --json")
        #expect(JSONNumbers(write).numbers.contains { $0.key == "wall_seconds" })
        #expect(JSONNumbers(write).numbers.contains { $0.key == "airtime_microseconds" && $0.decimalPlaces > 0 })
        let inspect = try output(["inspect", "--reader", store.spec(), "--dump", "--json"])
        expectRounded(inspect, "inspect --json")
        expectRounded(try output(["readers", "--json"]), "readers --json")
        let doctor = try ProvisionProcess.run(["doctor", "--json"])
        expectRounded(doctor.stdout, "doctor --json")
    }

    @Test func jobCommandsAndSummaryFilesPrintRoundedFigures() throws {
        let folder = try JobFolder(rows: 6)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let spec = folder.sim(uid: "04000000000001", options: "count=6")
        expectRounded(try output(["validate", "job.json", "--json"], in: folder.url), "validate --json")
        let run = try output(["run", "job.json", "--reader", spec, "--json"], in: folder.url)
        expectRounded(run, "run --json")
        #expect(JSONNumbers(run).numbers.contains { $0.key == "p50_ms" })
        let summary = try String(contentsOf: folder.reports.appendingPathComponent("summary.json"), encoding: .utf8)
        expectRounded(summary, "summary.json")
        expectRounded(try output(["report", "job.json", "--json"], in: folder.url), "report --json")
        let audit = try output(["audit", "job.json", "--reader", spec, "--json"], in: folder.url)
        expectRounded(audit, "audit --json")
    }
}
