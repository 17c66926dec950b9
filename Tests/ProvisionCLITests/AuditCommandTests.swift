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
private struct AuditFixture {
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
              "lock": "\(declaresLock ? "permanent" : "none")", "ledger": "out/ledger.sqlite", "reports": "\(reportsPath)" }
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
private func json(_ outcome: ProvisionProcess.Outcome) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
}

private func statuses(_ object: [String: Any]) -> [String: String] {
    let findings = object["findings"] as? [[String: Any]] ?? []
    var out: [String: String] = [:]
    for finding in findings {
        if let uid = finding["uid"] as? String, let status = finding["status"] as? String { out[uid] = status }
    }
    return out
}

@Suite(.serialized) struct AuditCommandTests {
    @Test func provisionedLockedTagsAllPassAndNoImageChanges() async throws {
        let fixture = try await AuditFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let before = try fixture.images()
        #expect(before.keys.filter { $0.hasSuffix(".bin") }.count == 3)
        let outcome = try fixture.audit(["--reader", fixture.reader(), "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try fixture.images() == before, "the audit never writes a tag")
        let object = try json(outcome)
        #expect(object["version"] as? Int == 1)
        #expect(object["job"] as? String == "audit-job")
        #expect(object["tags"] as? Int == 3)
        #expect(object["passed"] as? Bool == true)
        #expect(
            (object["counts"] as? [String: Int])
                == [
                    "pass": 3, "mismatch": 0, "unknown": 0, "unlocked": 0, "authFailed": 0, "configMismatch": 0,
                    "identityMismatch": 0,
                ])
        let rows = (object["findings"] as? [[String: Any]])?.compactMap { $0["row"] as? Int }
        #expect(rows == [1, 2, 3])
        #expect(outcome.stderr.contains("place tag") || outcome.stderr.contains("pass"))
        for ext in ["md", "json", "csv", "html"] { #expect(try fixture.auditFiles(ext).count == 1, "audit .\(ext)") }
        let csv = try String(contentsOf: try #require(try fixture.auditFiles("csv").first), encoding: .utf8)
        #expect(csv.components(separatedBy: "\n").filter { $0.contains(",pass,") }.count == 3)
    }

    @Test func tagsWrittenByProvisionRunPassTheAudit() async throws {
        let fixture = try await AuditFixture.make(rows: 1)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        // A second job in the same folder, written by the real `run` command this time.
        let manifest = try String(contentsOf: fixture.folder.appendingPathComponent("job.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"audit-job\"", with: "\"run-job\"")
            .replacingOccurrences(of: "out/ledger.sqlite", with: "run/ledger.sqlite")
            .replacingOccurrences(of: "\"out\"", with: "\"run\"")
        try Data(manifest.utf8).write(to: fixture.folder.appendingPathComponent("run.json"))
        let spec = "sim:ntag215?store=\(fixture.store.path)&uid=04E00000000001&count=1"
        let run = try ProvisionProcess.run(["run", "run.json", "--reader", spec, "--quiet"], directory: fixture.folder)
        #expect(run.status == 0, "\(run.stderr)")
        let outcome = try ProvisionProcess.run(
            ["audit", "run.json", "--reader", spec, "--json"], directory: fixture.folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try json(outcome)
        #expect(statuses(object) == ["04E00000000001": "pass"])
        #expect(object["job"] as? String == "run-job")
    }

    @Test func oneTamperedByteIsAMismatchAndTheRestPass() async throws {
        let fixture = try await AuditFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        var image = try [UInt8](Data(contentsOf: fixture.image(1)))
        #expect(image[16] == 0x03, "NDEF TLV at byte 16")
        image[16 + 2 + 10] ^= 0x20  // one byte inside the URI, nothing else fixed
        try Data(image).write(to: fixture.image(1))
        let before = try fixture.images()
        let outcome = try fixture.audit(["--reader", fixture.reader()])
        #expect(outcome.status == 1)
        #expect(try fixture.images() == before)
        let tampered = AuditFixture.uid(fixture.firstUID, plus: 1)
        let line = outcome.stdout.components(separatedBy: "\n").first { $0.contains(tampered) }
        #expect(line?.contains("mismatch") == true)
        #expect(line?.contains("differs from the ledger's") == true)
        #expect(line?.contains("same length") == true)
        #expect(outcome.stdout.contains("  pass               2"))
        let markdown = try String(contentsOf: try #require(try fixture.auditFiles("md").first), encoding: .utf8)
        #expect(markdown.contains("| \(tampered) | 2 | mismatch |"))
    }

    @Test func findingsCarryTheRecordsReadFromEachTagAsRecordJSON() async throws {
        let fixture = try await AuditFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        var image = try [UInt8](Data(contentsOf: fixture.image(1)))
        image[16 + 2 + 10] ^= 0x20  // "example" → "exampLe" on the second tag
        try Data(image).write(to: fixture.image(1))
        let outcome = try fixture.audit(["--reader", fixture.reader(extra: 1), "--json"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let uids = (0..<4).map { AuditFixture.uid(fixture.firstUID, plus: $0) }
        func uri(_ index: Int, host: String = "example.com") -> String {
            "https://\(host)/p/S\(index + 1)/\(index + 1)?u=\(uids[index])"
        }
        let expected: [String: [[String: String]]?] = [
            uids[0]: [["type": "uri", "uri": uri(0)]],
            uids[1]: [["type": "uri", "uri": uri(1, host: "exampLe.com")]],  // what the tag holds, not the ledger
            uids[2]: [["type": "uri", "uri": uri(2)]],
            uids[3]: nil,  // unknown to the job: not read, so no records
        ]
        func records(_ object: [String: Any]) -> [String: [[String: String]]?] {
            var out: [String: [[String: String]]?] = [:]
            for finding in object["findings"] as? [[String: Any]] ?? [] {
                guard let uid = finding["uid"] as? String else { continue }
                out[uid] = .some(finding["records"] as? [[String: String]])
            }
            return out
        }
        let object = try json(outcome)
        #expect(statuses(object) == [uids[0]: "pass", uids[1]: "mismatch", uids[2]: "pass", uids[3]: "unknown"])
        #expect(records(object) == expected)
        let file = try Data(contentsOf: try #require(try fixture.auditFiles("json").first))
        #expect(records(try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])) == expected)
        // A URI copied out of the report is the tag's tap URL, ready for verify-url.
        let first = (object["findings"] as? [[String: Any]])?.first?["records"] as? [[String: String]]
        #expect(first?.first?["uri"] == uri(0))
    }

    @Test func aCloneWithTheProvisionedUIDButAWrongBCCIsAnIdentityMismatch() async throws {
        let fixture = try await AuditFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        // A copy of tag 2's dump on a tag that answers its UID in anticollision, BCC1 botched.
        var image = try [UInt8](Data(contentsOf: fixture.image(1)))
        image[8] ^= 0x01
        try Data(image).write(to: fixture.image(1))
        let outcome = try fixture.audit(["--reader", fixture.reader(), "--json"])
        #expect(outcome.status == 1)
        let object = try json(outcome)
        let clone = AuditFixture.uid(fixture.firstUID, plus: 1)
        #expect(
            statuses(object) == [
                fixture.firstUID: "pass", clone: "identityMismatch",
                AuditFixture.uid(fixture.firstUID, plus: 2): "pass",
            ])
        #expect((object["counts"] as? [String: Int])?["identityMismatch"] == 1)
        let detail =
            (object["findings"] as? [[String: Any]])?.first { $0["uid"] as? String == clone }?["detail"] as? String
        #expect(detail?.hasPrefix("identity check: BCC1 is") == true, "\(detail ?? "")")
        let html = try String(contentsOf: try #require(try fixture.auditFiles("html").first), encoding: .utf8)
        #expect(html.contains("identityMismatch"))
    }

    @Test func unknownUIDsAreFindingsAndNameTheirOtherJob() async throws {
        let fixture = try await AuditFixture.make(rows: 2)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        try await AuditFixture.provision(fixture, job: "other", rows: 1, firstUID: "04B00000000001", lock: true)
        let before = try fixture.images()
        let outcome = try fixture.audit([
            "--reader", fixture.reader(extra: 1), "--reader", fixture.reader(uid: "04B00000000001", count: 1), "--json",
        ])
        #expect(outcome.status == 1)
        let after = try fixture.images()
        for (name, bytes) in before { #expect(after[name] == bytes, "\(name) unchanged") }
        let object = try json(outcome)
        let found = statuses(object)
        #expect(
            found == [
                "04A00000000001": "pass", "04A00000000002": "pass", "04A00000000003": "unknown",
                "04B00000000001": "unknown",
            ])
        let details = (object["findings"] as? [[String: Any]] ?? []).filter { $0["status"] as? String == "unknown" }
            .compactMap { $0["detail"] as? String }
        #expect(details.contains("UID not done in job audit-job"))
        #expect(details.contains("UID not done in job audit-job; it belongs to row 1 of job other"))
    }

    @Test func goodContentOnUnlockedTagsIsUnlockedWhenTheJobLocks() async throws {
        let fixture = try await AuditFixture.make(rows: 2, declaresLock: true, lockTags: false)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let before = try fixture.images()
        let outcome = try fixture.audit(["--reader", fixture.reader(), "--json"])
        #expect(outcome.status == 1)
        #expect(try fixture.images() == before)
        let object = try json(outcome)
        #expect(Set(statuses(object).values) == ["unlocked"])
        let detail = (object["findings"] as? [[String: Any]])?.first?["detail"] as? String
        #expect(detail?.contains("CC3 is 00") == true)
        #expect(detail?.contains("static lock bytes are 00 00") == true)
    }

    @Test func lockedTagsAreConfigMismatchWhenTheJobDoesNotLock() async throws {
        let fixture = try await AuditFixture.make(rows: 2, declaresLock: false, lockTags: true)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let outcome = try fixture.audit(["--reader", fixture.reader(), "--json"])
        #expect(outcome.status == 1)
        let object = try json(outcome)
        #expect(Set(statuses(object).values) == ["configMismatch"], "\(outcome.stdout)")
        let detail = (object["findings"] as? [[String: Any]])?.first?["detail"] as? String
        #expect(detail == "content matches but lock expected none, found locked (CC3 0F, static lock bytes FF FF)")
    }

    @Test func unlockedTagsPassWhenTheJobDoesNotLock() async throws {
        let fixture = try await AuditFixture.make(rows: 2, declaresLock: false, lockTags: false)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let outcome = try fixture.audit(["--reader", fixture.reader(), "--quiet"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.isEmpty, "--quiet prints no prompts")
        #expect(outcome.stdout.contains("audit of job audit-job: 2 tags read"))
    }

    @Test func aUIDPresentedTwiceIsAuditedOnce() async throws {
        let fixture = try await AuditFixture.make(rows: 1)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let spec = fixture.reader()
        let outcome = try fixture.audit(["--reader", spec, "--reader", spec, "--json"])
        #expect(outcome.status == 0)
        let object = try json(outcome)
        #expect(object["tags"] as? Int == 1)
        #expect(object["repeats"] as? Int == 1)
        #expect(outcome.stderr.contains("already audited in this session"))
    }

    @Test func countStopsTheAudit() async throws {
        let fixture = try await AuditFixture.make(rows: 3)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let outcome = try fixture.audit(["--reader", fixture.reader(), "--count", "2", "--json"])
        #expect(outcome.status == 0)
        #expect(try json(outcome)["tags"] as? Int == 2)
    }

    @Test func idleStopsAnAuditWithoutTags() async throws {
        let fixture = try await AuditFixture.make(rows: 1)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let outcome = try fixture.audit(["--reader", fixture.reader(count: 0), "--idle", "0.3", "--json"])
        #expect(outcome.status == 0)
        #expect(try json(outcome)["tags"] as? Int == 0)
    }

    @Test func missingLedgerExits66AndTouchesNoTag() async throws {
        let fixture = try await AuditFixture.make(rows: 1)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        try FileManager.default.removeItem(atPath: fixture.ledgerPath)
        let outcome = try fixture.audit(["--reader", fixture.reader()])
        #expect(outcome.status == 66)
        #expect(outcome.stderr.hasPrefix("error: no ledger at "))
        #expect(try fixture.auditFiles("md").isEmpty)
    }

    @Test func reportsFolderThatCannotBeCreatedExits73() async throws {
        let fixture = try await AuditFixture.make(rows: 1, reportsPath: "job.json/reports")
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let outcome = try fixture.audit(["--reader", fixture.reader()])
        #expect(outcome.status == 73)
        #expect(outcome.stderr.contains("cannot create the reports folder"))
    }

    @Test func firstInterruptStopsBetweenTagsWritesTheFilesAndExits130() async throws {
        let fixture = try await AuditFixture.make(rows: 1)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let process = Process()
        process.executableURL = ProvisionProcess.executableURL
        // An endless stream of tags the ledger does not know (and no --max-unknown): only Ctrl-C ends it.
        let strangers = fixture.folder.appendingPathComponent("strangers").path
        process.arguments = [
            "audit", "job.json", "--reader", "sim:ntag215?uid=04C00000000001&count=1000000&store=\(strangers)",
            "--max-unknown", "0",
        ]
        process.currentDirectoryURL = fixture.folder
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let reading = Task.detached { output.fileHandleForReading.readDataToEndOfFile() }
        // The first per-tag line on stderr shows the SIGINT handler is installed; keep draining after.
        let started = AsyncStream<Void> { continuation in
            Thread.detachNewThread {
                var signalled = false
                while case let chunk = errors.fileHandleForReading.availableData, !chunk.isEmpty {
                    if !signalled { continuation.yield(()) }
                    signalled = true
                }
                continuation.finish()
            }
        }
        for await _ in started { break }
        try await Task.sleep(for: .milliseconds(200))
        process.interrupt()
        let data = await reading.value
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("(interrupted)"))
        #expect(text.contains("unknown"))
        #expect(try fixture.auditFiles("md").count == 1)
    }

    @Test(arguments: [
        ["audit"], ["audit", "job.json", "--count", "0"], ["audit", "job.json", "--idle", "x"], ["audit", "a", "b"],
    ])
    func usageErrorsExit64(_ arguments: [String]) async {
        let context = CommandContext.buffered()
        #expect(await ProvisionCLI.run(arguments, context: context) == 64)
        #expect(context.err.text.hasPrefix("error: "))
    }

    @Test func auditIsListedInHelp() async {
        let context = CommandContext.buffered()
        #expect(await ProvisionCLI.run(["--help"], context: context) == 0)
        #expect(context.out.text.contains("  audit "))
        let own = CommandContext.buffered()
        #expect(await ProvisionCLI.run(["audit", "--help"], context: own) == 0)
        #expect(own.out.text.hasPrefix("Usage: provision audit MANIFEST"))
    }
}
