import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// The message stored in a tag image (NTAG215 layout), decoded.
private func storedMessage(_ folder: JobFolder, uid: String) throws -> NDEFMessage {
    let image = [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("\(uid).bin")))
    return try NDEFMessage(bytes: try NDEFTLV.extractMessage(fromArea: Array(image[16..<512])))
}

@Suite(.serialized) struct RunCommandTests {
    @Test func runDoesEveryRowAndLedgerImagesAndTagsCSVAgree() throws {
        let folder = try JobFolder(rows: 15)
        let outcome = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000001"), "--quiet"], directory: folder.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("15/15 done"))
        let rows = try folder.query("SELECT row, uid, state FROM records ORDER BY row")
        #expect(rows.count == 15 && rows.allSatisfy { $0[2] == "done" })
        let csv = try String(contentsOf: folder.reports.appendingPathComponent("tags.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        #expect(csv.count == 15)
        for (record, line) in zip(rows, csv) {
            #expect(line[0] == record[1] && line[1] == record[0])
            #expect(line[2] == "S" + String(repeating: "0", count: 5 - record[0].count) + record[0])
            let message = try storedMessage(folder, uid: record[1])
            let uri = message.records.first?.wellKnownTypeURIPayload()?.absoluteString ?? ""
            #expect(uri == "https://example.com/p/SKU-\(record[0])/\(line[2])?u=\(record[1])")
            #expect(Hex.compact(Crypto256.sha(message.bytes)).lowercased() == line[3])
            #expect(line[4] == "true")
        }
        for name in ["summary.md", "summary.json", "failures.csv", "report.html"] {
            #expect(FileManager.default.fileExists(atPath: folder.reports.appendingPathComponent(name).path))
        }
        // The reports regenerate identically from the ledger.
        let before = try ["summary.md", "summary.json", "tags.csv", "failures.csv"].map {
            try Data(contentsOf: folder.reports.appendingPathComponent($0))
        }
        let report = try ProvisionProcess.run(["report", "job.json"], directory: folder.url)
        #expect(report.status == 0)
        let after = try ["summary.md", "summary.json", "tags.csv", "failures.csv"].map {
            try Data(contentsOf: folder.reports.appendingPathComponent($0))
        }
        #expect(before == after)
    }

    @Test func failedPreflightCreatesNoLedgerAndTouchesNoTag() throws {
        let folder = try JobFolder(rows: 3, tag: "ntag213")
        // Make row 2 far too large for an NTAG213.
        let csv = "sku,name\nA,a\n\(String(repeating: "B", count: 300)),b\nC,c\n"
        try Data(csv.utf8).write(to: folder.url.appendingPathComponent("rows.csv"))
        let outcome = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim("ntag213", uid: "04000000000001")], directory: folder.url)
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("row 2"))
        #expect(!FileManager.default.fileExists(atPath: folder.ledger.path))
        #expect(!FileManager.default.fileExists(atPath: folder.store.path))
    }

    @Test func faultsEndInTheirClassesAndTheJobStillCompletes() throws {
        let folder = try JobFolder(rows: 20)
        let spec = folder.sim(
            uid: "04000000000100", options: "seed=3&faults=tear:0.15,readonly:0.1,wrongchip:0.1,multi:0.1")
        let outcome = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let failures = try String(contentsOf: folder.reports.appendingPathComponent("failures.csv"), encoding: .utf8)
        for name in ["tagLost", "readOnly", "wrongChip"] { #expect(failures.contains(",\(name),"), "\(name)") }
        let done = try folder.query("SELECT count(*) FROM records WHERE state = 'done'")
        #expect(done == [["20"]])
        // Every torn UID finished the row it held.
        let lost = try folder.query("SELECT DISTINCT uid, row FROM attempts WHERE failure_class = 'tagLost'")
        for pair in lost {
            #expect(
                try folder.query("SELECT row FROM records WHERE uid = '\(pair[0])' AND state = 'done'") == [[pair[1]]])
        }
    }

    @Test func duplicateTagsAreSkippedAndTooSmallChipsRefused() throws {
        let folder = try JobFolder(rows: 2, tag: "type2")
        #expect(
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", folder.sim(uid: "04000000000001"), "--quiet"], directory: folder.url
            ).status == 0)
        // A second job presenting the same two tags: duplicates, nothing written.
        let second = try JobFolder(job: "u", rows: 2, extra: ", \"ledger\": \"\(folder.ledger.path)\"")
        let replay = "sim:ntag215?uid=04000000000001&count=2&store=\(folder.store.path)"
        let rerun = try ProvisionProcess.run(["run", "job.json", "--reader", replay, "--quiet"], directory: second.url)
        #expect(rerun.status == 1)
        let failures = try String(contentsOf: second.reports.appendingPathComponent("failures.csv"), encoding: .utf8)
        #expect(failures.components(separatedBy: ",duplicateUID,").count - 1 == 2)
        #expect(failures.contains("already provisioned as row 1 of job t"))
    }

    @Test func cloneTagsAreRefusedBeforeAnyWriteAndTheReportsNameTheClass() throws {
        let folder = try JobFolder(rows: 4)
        // Tags 2, 4 and 6 are clones: another UID in pages 0–1, a wrong BCC1, INT 00.
        let spec = folder.sim(uid: "04000000000001", options: "count=6&identity=-,uid,-,bcc1,-,int")
        let outcome = try ProvisionProcess.run(["run", "job.json", "--reader", spec], directory: folder.url)
        #expect(outcome.status == 1, "a row remains pending: \(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("3/4 done"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("identityMismatch: 6"), "each clone tried twice: \(outcome.stdout)")
        let rows = try folder.query("SELECT row, uid, state FROM records ORDER BY row")
        #expect(
            rows == [
                ["1", "04000000000001", "done"], ["2", "04000000000003", "done"], ["3", "04000000000005", "done"],
                ["4", "", "pending"],
            ])
        let refused = try folder.query(
            "SELECT DISTINCT uid, failure_class, phase FROM attempts WHERE outcome = 'failed' ORDER BY uid")
        #expect(
            refused == [
                ["04000000000002", "identityMismatch", "identify"], ["04000000000004", "identityMismatch", "identify"],
                ["04000000000006", "identityMismatch", "identify"],
            ])
        for uid in ["04000000000002", "04000000000004", "04000000000006"] {
            let image = [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("\(uid).bin")))
            #expect(Array(image[16..<20]) == [0x03, 0x00, 0xFE, 0x00], "\(uid): nothing written")
        }
        let failures = try String(contentsOf: folder.reports.appendingPathComponent("failures.csv"), encoding: .utf8)
        #expect(failures.components(separatedBy: ",identityMismatch,").count - 1 == 6)
        #expect(failures.contains("anticollision gave 04000000000002"))
        #expect(failures.contains("BCC1 is"))
        #expect(failures.contains("internal byte is 00, not 48"))
        let summary =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: folder.reports.appendingPathComponent("summary.json"))) as? [String: Any]
        #expect((summary?["failures_by_class"] as? [String: Int]) == ["identity_mismatch": 6])
        let markdown = try String(contentsOf: folder.reports.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(markdown.contains("| identityMismatch | 6 |"))
        let html = try String(contentsOf: folder.reports.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("identityMismatch"))
    }

    @Test func identityCheckRecordWritesClonesAndABadSettingIsAUsageOfTheManifest() throws {
        let folder = try JobFolder(rows: 2, extra: #", "identityCheck": "record""#)
        let spec = folder.sim(uid: "04000000000001", options: "count=2&identity=uid")
        let outcome = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            try folder.query("SELECT uid, outcome FROM attempts ORDER BY id")
                == [["04000000000001", "done"], ["04000000000002", "done"]])
        let kept = try folder.query("SELECT failure_detail FROM attempts ORDER BY id").map { $0.joined(separator: ",") }
        #expect(kept.allSatisfy { $0.hasPrefix("identity check (record): pages 0–1 hold UID") }, "\(kept)")
        let bad = try JobFolder(rows: 1, extra: #", "identityCheck": "warn""#)
        let refused = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: bad.url)
        #expect(refused.status == 65)
        #expect(
            refused.stderr.contains("identityCheck: unknown value 'warn' (expected one of: refuse, record)"),
            "\(refused.stderr)")
    }

    @Test(arguments: [2, 4])
    func severalReadersOnOneJobClaimEveryRowOnce(readers: Int) throws {
        let folder = try JobFolder(rows: 24)
        var arguments = ["run", "job.json", "--quiet"]
        for index in 1...readers { arguments += ["--reader", folder.sim(uid: "04\(index)00000000000")] }
        let outcome = try ProvisionProcess.run(arguments, directory: folder.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            try folder.query("SELECT count(DISTINCT row), count(DISTINCT uid), count(*) FROM tags") == [
                ["24", "24", "24"]
            ])
        let readersUsed = try folder.query("SELECT count(DISTINCT reader) FROM attempts")
        #expect(readersUsed == [[String(readers)]])
    }
}
