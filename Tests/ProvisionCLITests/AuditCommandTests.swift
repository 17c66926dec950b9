import Foundation
import Ledger
import NDEF
import NFCTags
import ProvisionCLI
import Provisioning
import TagEmulator
import TestSupport
import Testing

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
        #expect(object["version"] as? Int == 2)
        #expect(object["job"] as? String == "audit-job")
        #expect(object["tags"] as? Int == 3)
        #expect(object["passed"] as? Bool == true)
        #expect(
            (object["counts"] as? [String: Int])
                == [
                    "pass": 3, "mismatch": 0, "unknown": 0, "unlocked": 0, "auth_failed": 0, "config_mismatch": 0,
                    "identity_mismatch": 0, "blank": 0, "unreadable": 0,
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
        let spec = try fixture.provisionedByRun(count: 1)
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
            uids[3]: [],  // a fresh tag in no job: read to tell it blank, an empty message
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
        #expect(statuses(object) == [uids[0]: "pass", uids[1]: "mismatch", uids[2]: "pass", uids[3]: "blank"])
        #expect(records(object) == expected)
        let file = try Data(contentsOf: try #require(try fixture.auditFiles("json").first))
        #expect(records(try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])) == expected)
        // A URI copied out of the report is the tag's tap URL, ready for verify-url.
        let first = (object["findings"] as? [[String: Any]])?.first?["records"] as? [[String: String]]
        #expect(first?.first?["uri"] == uri(0))
    }

    @Test func aTagOverwrittenWithAnotherURIShowsTheExpectedAndTheFoundRecordsInTextJSONAndHTML() async throws {
        let fixture = try await AuditFixture.make(rows: 2, declaresLock: false, lockTags: false)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        // Written by the real `run`, so the audit renders each row as the run did; then tag 2 is overwritten.
        let spec = try fixture.provisionedByRun(count: 2)
        let second = "sim:ntag215?store=\(fixture.store.path)&uid=04E00000000002&count=1"
        let write = try ProvisionProcess.run(["write", "--reader", second, "--uri", "https://evil.example/x"])
        #expect(write.status == 0, "\(write.stderr)")
        let outcome = try ProvisionProcess.run(
            ["audit", "run.json", "--reader", spec, "--json"], directory: fixture.folder)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let findings = try json(outcome)["findings"] as? [[String: Any]] ?? []
        #expect(findings.map { $0["status"] as? String } == ["pass", "mismatch"])
        #expect(findings.first?["expected"] == nil, "a matching tag shows no expected records")
        let written = "https://example.com/p/S2?u=04E00000000002"
        #expect(findings.last?["expected"] as? [[String: String]] == [["type": "uri", "uri": written]])
        #expect(findings.last?["records"] as? [[String: String]] == [["type": "uri", "uri": "https://evil.example/x"]])
        #expect((findings.last?["detail"] as? String)?.contains("differs from the ledger's") == true)
        let text = try ProvisionProcess.run(["audit", "run.json", "--reader", spec], directory: fixture.folder)
        let lines = text.stdout.components(separatedBy: "\n")
        let differs = try #require(lines.firstIndex(of: "      record 0 differs"), "\(text.stdout)")
        #expect(
            lines[differs + 1].hasPrefix("        expected: nfcWellKnown (1)") && lines[differs + 1].contains(written))
        #expect(lines[differs + 2].hasPrefix("        on tag:   ") && lines[differs + 2].contains("evil.example/x"))
        let reports = fixture.folder.appendingPathComponent("run")
        let html = try #require(
            try FileManager.default.contentsOfDirectory(atPath: reports.path).first {
                $0.hasSuffix(".html") && $0.hasPrefix("audit-")
            })
        let page = try String(contentsOf: reports.appendingPathComponent(html), encoding: .utf8)
        #expect(
            page.contains("<td class=\"code differs\">") && page.contains(written) && page.contains("evil.example/x"))
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
        #expect((object["counts"] as? [String: Int])?["identity_mismatch"] == 1)
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
                "04A00000000001": "pass", "04A00000000002": "pass", "04A00000000003": "blank",
                "04B00000000001": "unknown",
            ])
        let details = (object["findings"] as? [[String: Any]] ?? []).filter { $0["status"] as? String == "unknown" }
            .compactMap { $0["detail"] as? String }
        #expect(details == ["UID not done in job audit-job; it belongs to row 1 of job other"])
        let blank = (object["findings"] as? [[String: Any]] ?? []).first { $0["status"] as? String == "blank" }
        #expect(blank?["detail"] as? String == "blank tag, never written (an empty NDEF message); not in job audit-job")
    }

    @Test func aBlankTagInTheStoredPopulationIsReportedApartAndTheAuditPasses() async throws {
        let fixture = try await AuditFixture.make(rows: 2)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        // A spare presented after the job ended: never written, but its image is in the store now.
        let spare = AuditFixture.uid(fixture.firstUID, plus: 2)
        let reader = try SimulatedReader(
            spec: ReaderSpec("sim:ntag215?store=\(fixture.store.path)&uid=\(spare)&count=1"))
        _ = try await reader.poll(timeoutMilliseconds: 100)
        _ = try await reader.release(waitingForRemovalMilliseconds: 100)
        #expect(FileManager.default.fileExists(atPath: fixture.image(2).path))
        // `audit` reads the stored population (population=stored): the job's two tags and the spare.
        let outcome = try fixture.audit(["--reader", "sim:ntag215?store=\(fixture.store.path)", "--json"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let object = try json(outcome)
        #expect(
            statuses(object) == [
                fixture.firstUID: "pass", AuditFixture.uid(fixture.firstUID, plus: 1): "pass", spare: "blank",
            ])
        #expect((object["counts"] as? [String: Int])?["blank"] == 1)
        #expect((object["counts"] as? [String: Int])?["unknown"] == 0)
        #expect(object["passed"] as? Bool == true)
        let text = try fixture.audit(["--reader", "sim:ntag215?store=\(fixture.store.path)"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("blank tags (never written, in no job; not failures): \(spare)"), "\(text.stdout)")
        #expect(!text.stdout.contains("findings that did not pass"), "\(text.stdout)")
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
        // Read on a thread of its own: a blocking read must not hold one of the few cooperative pool threads.
        let reading = Task { try await onThread { output.fileHandleForReading.readDataToEndOfFile() } }
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
        let data = try await reading.value
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
