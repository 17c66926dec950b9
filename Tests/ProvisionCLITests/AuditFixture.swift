import Foundation
import Ledger
import NDEF
import NFCTags
import ProvisionCLI
import Provisioning
import TagEmulator
import TestSupport
import Testing

/// A job folder with a manifest, a ledger filled by a real `LineWorker` run on the simulator, and the
/// tag images it left in `tags/`.
struct AuditFixture {
    let folder: URL
    let job: String
    let firstUID: String
    let rows: Int

    var store: URL { folder.appendingPathComponent("tags") }
    var reports: URL { folder.appendingPathComponent("out") }
    var ledgerPath: String { reports.appendingPathComponent("ledger.sqlite").path }

    /// `sim:` spec presenting the job's tags (plus `extra` UIDs after them) from the store.
    func reader(extra: Int = 0, uid: String? = nil, count: Int? = nil) -> String {
        "sim:ntag215?store=\(store.path)&uid=\(uid ?? firstUID)&count=\(count ?? rows + extra)"
    }

    /// The image file of the `index`-th tag (0-based) of the job.
    func image(_ index: Int) -> URL {
        store.appendingPathComponent("\(Self.uid(firstUID, plus: index)).bin")
    }

    static func uid(_ first: String, plus offset: Int) -> String {
        let value = (UInt64(first, radix: 16) ?? 0) + UInt64(offset)
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 14 - text.count) + text
    }

    /// Every tag image (`<UID>.bin`) in the store and its bytes, with the hidden state beside it
    /// (`<UID>.state.json`: counters) decoded, since its key order is not stable.
    func images() throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: store.path) {
            let data = try Data(contentsOf: store.appendingPathComponent(name))
            if name.hasSuffix(".json") {
                let object = try JSONSerialization.jsonObject(with: data)
                out[name] = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            } else {
                out[name] = data
            }
        }
        return out
    }

    /// Writes the manifest (`lock` as the job declares it), then provisions `rows` tags (locking them
    /// when `lockTags`) with `LineWorker` into the ledger and the store.
    static func make(
        job: String = "audit-job", rows: Int = 3, firstUID: String = "04A00000000001", declaresLock: Bool = true,
        lockTags: Bool = true, reportsPath: String = "out"
    ) async throws -> AuditFixture {
        let folder = try Fixtures.temporaryDirectory("audit-cli")
        let fixture = AuditFixture(folder: folder, job: job, firstUID: firstUID, rows: rows)
        let template = #"{ "records": [ { "type": "uri", "uri": "https://example.com/p/{{sku}}?u={{uid}}" } ] }"#
        try Data(template.utf8).write(to: folder.appendingPathComponent("template.json"))
        let records = (1...rows).map { #"{ "sku": "S\#($0)" }"# }.joined(separator: ", ")
        let manifest = """
            { "job": "\(job)", "template": "template.json", "records": [\(records)], "tag": "ntag215",
              "lock": "\(declaresLock ? "permanent" : "none")", "ledger": "out/ledger.sqlite",
              "reports": "\(reportsPath)" }
            """
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("job.json"))
        try FileManager.default.createDirectory(at: fixture.reports, withIntermediateDirectories: true)
        try await provision(fixture, job: job, rows: rows, firstUID: firstUID, lock: lockTags)
        return fixture
    }

    /// Runs a `LineWorker` for `job` over fresh simulated tags starting at `firstUID`.
    static func provision(_ fixture: AuditFixture, job: String, rows: Int, firstUID: String, lock: Bool) async throws {
        let ledger = try await Ledger.open(path: fixture.ledgerPath)
        try await ledger.registerJob(name: job, manifestHash: "m", templateHash: "t")
        try await ledger.addRows(
            job: job,
            rows: (1...rows).map { RowInput(row: $0, fields: ["sku": "S\($0)"], messageSHA256: [], messageLength: 0) })
        let lineJob = LineJob(name: job, acceptedChips: [.ntag215], lock: lock, tries: 1, onFailure: .reuse) {
            row, fields, uid, _ in
            NDEFMessage(records: [
                NDEFPayload.uri("https://example.com/p/\(fields["sku"] ?? "")/\(row)?u=\(Hex.compact(uid))")
            ]).bytes
        }
        let reader = try SimulatedReader(
            spec: ReaderSpec("sim:ntag215?store=\(fixture.store.path)&uid=\(firstUID)&count=\(rows)"))
        let stop = try await LineWorker(reader: reader, ledger: ledger, job: lineJob).run()
        #expect(stop == .jobComplete)
        #expect(try await ledger.counts(job: job).done == rows)
    }

    /// Copies the job as `run.json` (job `run-job`, its own ledger and reports in `run/`) and programs `count`
    /// tags from 04E00000000001 on with the real `run` command; returns their reader spec.
    func provisionedByRun(count: Int) throws -> String {
        let manifest = try String(contentsOf: folder.appendingPathComponent("job.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"audit-job\"", with: "\"run-job\"")
            .replacingOccurrences(of: "out/ledger.sqlite", with: "run/ledger.sqlite")
            .replacingOccurrences(of: "\"out\"", with: "\"run\"")
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("run.json"))
        let spec = "sim:ntag215?store=\(store.path)&uid=04E00000000001&count=\(count)"
        let run = try ProvisionProcess.run(["run", "run.json", "--reader", spec, "--quiet"], directory: folder)
        #expect(run.status == 0, "\(run.stderr)")
        return spec
    }

    func audit(_ extra: [String]) throws -> ProvisionProcess.Outcome {
        try ProvisionProcess.run(["audit", "job.json"] + extra, directory: folder)
    }

    /// The `audit-*.<ext>` files in the reports folder.
    func auditFiles(_ ext: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: reports.path)
            .filter { $0.hasPrefix("audit-") && $0.hasSuffix("." + ext) }.sorted()
            .map { reports.appendingPathComponent($0) }
    }
}

/// The `--json` object of an audit.
func json(_ outcome: ProvisionProcess.Outcome) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
}

func statuses(_ object: [String: Any]) -> [String: String] {
    let findings = object["findings"] as? [[String: Any]] ?? []
    var out: [String: String] = [:]
    for finding in findings {
        if let uid = finding["uid"] as? String, let status = finding["status"] as? String { out[uid] = status }
    }
    return out
}
