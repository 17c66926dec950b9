import Foundation
import NDEF
import TestSupport
import Testing

/// `run`, `write` and `audit` on simulated Type 4 tags (`sim:ntag424`, `sim:type4`), driven as a line
/// engineer runs them: the processes, the ledger file and the tag images.
@Suite(.serialized) struct Type4RunTests {
    /// The NDEF message a Type 4 image holds: files in file-number order, the CC (`ccSize` bytes) first, then
    /// the NDEF file with its 2-byte NLEN (mapping 2.0) or 4-byte ENLEN (3.0).
    static func storedMessage(_ folder: JobFolder, uid: String, ccSize: Int, lengthField: Int = 2) throws -> [UInt8] {
        Type4Image.message(in: try image(folder, uid: uid), ccSize: ccSize, lengthField: lengthField)
    }

    static func image(_ folder: JobFolder, uid: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("\(uid).bin")))
    }

    @Test func anNTAG424JobIsWrittenRecordedAsType4AndPassesTheAudit() throws {
        let folder = try JobFolder(rows: 4, tag: "ntag424", lock: false)
        let spec = folder.sim("ntag424", uid: "04A00000000001", options: "count=4")
        let run = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Type 4 airtime includes modelled tag processing times that are assumptions"))
        let summary = try String(contentsOf: folder.reports.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("the NT4H2421 data sheet publishes none"))
        let rows = try folder.query("SELECT row, uid, state, chip, family, locked FROM records ORDER BY row")
        #expect(rows.map { Array($0[2...]) } == Array(repeating: ["done", "ntag424", "type4", "0"], count: 4))
        for row in rows {
            let message = try NDEFMessage(bytes: try Self.storedMessage(folder, uid: row[1], ccSize: 32))
            let uri = message.records.first?.wellKnownTypeURIPayload()?.absoluteString ?? ""
            #expect(uri.hasPrefix("https://example.com/p/SKU-\(row[0])/") && uri.hasSuffix("?u=\(row[1])"), "\(uri)")
        }
        let csv = try String(contentsOf: folder.reports.appendingPathComponent("tags.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\n").dropFirst().allSatisfy { $0.hasSuffix(",ntag424,type4") }, "\(csv)")
        let exchanges = try folder.query("SELECT DISTINCT exchanges FROM attempts")
        // SELECT app, SELECT CC, READ CC, SELECT NDEF, READ NLEN, GetVersion ×3 … the count is per tag and fixed.
        #expect(exchanges.count == 1, "\(exchanges)")
        let audit = try ProvisionProcess.run(
            ["audit", "job.json", "--reader", "sim:ntag424?store=\(folder.store.path)", "--json"], directory: folder.url
        )
        #expect(audit.status == 0, "\(audit.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any])
        #expect(object["passed"] as? Bool == true && object["tags"] as? Int == 4)
    }

    @Test func aGenericTagWithSmallFramesAndMapping3IsLockedWhenTheJobSaysItHonoursTheCC() throws {
        let folder = try JobFolder(
            rows: 3, tag: "type4", extra: #", "type4": {"minimumFileSize": 600, "honoursCCWriteByte": true}"#)
        let chip = "size=600&mapping=3&mle=15&mlc=13"
        let spec = folder.sim("type4", uid: "04B00000000001", options: "count=3&" + chip)
        let run = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try folder.query("SELECT uid, state, chip, family, locked FROM records ORDER BY row")
        #expect(rows.map { Array($0[1...]) } == Array(repeating: ["done", "type4", "type4", "1"], count: 3))
        for row in rows {
            let image = try Self.image(folder, uid: row[0])
            #expect(image[16] == 0xFF, "the CC's NDEF write byte (mapping 3.0: byte 16) is FFh")
            let message = try NDEFMessage(
                bytes: try Self.storedMessage(folder, uid: row[0], ccSize: 17, lengthField: 4))
            #expect(message.records.count == 2)
        }
        // The chip now refuses writes: `write` finds it read-only and changes nothing.
        let before = try Self.image(folder, uid: "04B00000000001")
        let write = try ProvisionProcess.run(
            [
                "write", "--reader", folder.sim("type4", uid: "04B00000000001", options: "count=1&" + chip),
                "--uri", "https://example.com/x",
            ],
            directory: folder.url)
        #expect(write.status != 0 && write.stderr.contains("readOnly"), "\(write.stderr)")
        #expect(try Self.image(folder, uid: "04B00000000001") == before)
    }

    @Test func aLockNoChipModelCanProveIsRefusedBeforeAnythingIsWritten() throws {
        let folder = try JobFolder(rows: 2, tag: "type4")
        let spec = folder.sim("type4", uid: "04C00000000001", options: "count=2")
        let run = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        #expect(run.status != 0)
        #expect(try folder.query("SELECT DISTINCT state FROM records") == [["pending"]])
        let attempts = try folder.query("SELECT uid, failure_class, phase FROM attempts")
        #expect(attempts.count == 2, "refused once each, not retried: \(attempts)")
        #expect(attempts.allSatisfy { $0[1] == "lockUnsupported" && $0[2] == "identify" })
        let failures = try String(contentsOf: folder.reports.appendingPathComponent("failures.csv"), encoding: .utf8)
        #expect(failures.contains("honoursCCWriteByte"))
        for uid in ["04C00000000001", "04C00000000002"] {
            #expect(try Self.storedMessage(folder, uid: uid, ccSize: 15).isEmpty, "NLEN still 0 on \(uid)")
        }
    }

    @Test(arguments: [
        ("ntag215", "ntag424", "tag is a type4 tag (SAK 20h), the job takes type2 tags"),
        ("type4", "ntag215", "tag is a type2 tag (SAK 00h), the job takes type4 tags"),
    ])
    func aJobRefusesTagsOfTheOtherFamily(job: String, presented: String, detail: String) throws {
        let folder = try JobFolder(rows: 2, tag: job, lock: false)
        let spec = folder.sim(presented, uid: "04D00000000001", options: "count=2")
        let run = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        #expect(run.status != 0)
        #expect(try folder.query("SELECT DISTINCT state FROM records") == [["pending"]])
        let attempts = try folder.query(
            "SELECT failure_class, replace(failure_detail, ',', ';'), exchanges FROM attempts")
        let expected = ["wrongChip", detail.replacingOccurrences(of: ",", with: ";"), "0"]
        #expect(attempts == Array(repeating: expected, count: 2), "\(attempts)")
    }

    @Test func tornWritesResumeAndEveryRowIsDoneOnce() throws {
        let folder = try JobFolder(rows: 12, tag: "ntag424", lock: false)
        let spec = folder.sim("ntag424", uid: "04E00000000001", options: "seed=5&faults=tear:0.4")
        let run = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try folder.query("SELECT count(*) FROM records WHERE state = 'done'") == [["12"]])
        let torn = try folder.query("SELECT count(*) FROM attempts WHERE failure_class = 'tagLost'")
        #expect(Int(torn.first?.first ?? "0") ?? 0 > 0, "the seed tears some writes")
        let audit = try ProvisionProcess.run(
            ["audit", "job.json", "--reader", "sim:ntag424?store=\(folder.store.path)"], directory: folder.url)
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
    }

    @Test func plannedMisbehaviourEndsInItsClassesAndTheRowsFinishOnTheNextTries() throws {
        let folder = try JobFolder(rows: 4, tag: "ntag424", lock: false)
        // Tag 1 denies the NDEF application, tag 2 answers garbage to its body UPDATE, tag 3 goes silent,
        // tag 4 reports a memory failure (6581) on its NLEN UPDATE.
        let plan = "plan=sw:6A82@4,garbage:4@9,silence@7,sw:6581@10"
        let spec = folder.sim("ntag424", uid: "04A10000000001", options: plan)
        let run = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try folder.query("SELECT count(*) FROM records WHERE state = 'done'") == [["4"]])
        let failed = try folder.query("SELECT uid, failure_class FROM attempts WHERE outcome = 'failed' ORDER BY id")
        #expect(
            failed == [
                ["04A10000000001", "notNDEF"], ["04A10000000002", "transport"], ["04A10000000003", "timeout"],
                ["04A10000000004", "transport"],
            ], "\(failed)")
        #expect(try folder.query("SELECT count(*) FROM records WHERE uid = '04A10000000001'") == [["0"]])
        #expect(try Self.storedMessage(folder, uid: "04A10000000001", ccSize: 32).isEmpty)
    }

    @Test func writeThenInspectOneNTAG424() throws {
        let folder = try JobFolder(rows: 1, tag: "ntag424", lock: false)
        let spec = folder.sim("ntag424", uid: "04B10000000001", options: "count=1")
        let write = try ProvisionProcess.run(
            ["write", "--reader", spec, "--uri", "https://example.com/one"], directory: folder.url)
        #expect(write.status == 0, "\(write.stderr)")
        #expect(
            write.stdout.contains("Offsets   written 0002h 0000h (UPDATE BINARY of the NDEF file)"), "\(write.stdout)")
        let message = NDEFMessage(records: [NDEFPayload.uri("https://example.com/one")]).bytes
        #expect(try Self.storedMessage(folder, uid: "04B10000000001", ccSize: 32) == message)
        let inspect = try ProvisionProcess.run(["inspect", "--reader", spec, "--json"], directory: folder.url)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        #expect(object["family"] as? String == "type4" && object["sak"] as? String == "20")
        #expect((object["protection"] as? [String: Any])?["ats"] as? String == "06 77 77 71 02 80")
        let ndef = try #require(object["ndef"] as? [String: Any])
        #expect(ndef["message_hex"] as? String == Hex.string(message) && ndef["capacity"] as? Int == 254)
        let cc = try #require(object["locks"] as? [String: Any])
        #expect((cc["ndef_file"] as? [String: Any])?["size"] as? Int == 256 && cc["version"] as? String == "2.0")
    }

    @Test func preflightSizesRowsAgainstTheNTAG424File() throws {
        let folder = try JobFolder(rows: 2, tag: "ntag424", lock: false)
        let csv = "sku,name\nA,a\n\(String(repeating: "B", count: 250)),b\n"
        try Data(csv.utf8).write(to: folder.url.appendingPathComponent("rows.csv"))
        let run = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim("ntag424", uid: "04F00000000001")], directory: folder.url)
        #expect(run.status == 65)
        #expect(run.stderr.contains("row 2") && run.stderr.contains("254"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.ledger.path))
    }
}
