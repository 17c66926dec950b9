import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// `run`, `write`, `inspect` and `audit` on simulated FeliCa Lite-S tags (`sim:felica-lite-s`), driven as a line
/// engineer runs them: the processes, the ledger file and the tag images.
@Suite(.serialized) struct Type3RunTests {
    /// The blocks of an image (`FeliCaLiteS.blocks` order, 16 bytes each) by number.
    static func blocks(_ folder: JobFolder, idm: String) throws -> [Int: [UInt8]] {
        let image = [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("\(idm).bin")))
        var out: [Int: [UInt8]] = [:]
        for (i, block) in FeliCaLiteS.blocks.enumerated() { out[block] = Array(image[16 * i..<16 * i + 16]) }
        return out
    }

    /// The NDEF message the image's attribute block and data blocks hold.
    static func message(_ blocks: [Int: [UInt8]]) throws -> [UInt8] {
        let attributes = try Type3AttributeBlock(blocks[0]!)
        guard attributes.length > 0 else { return [] }
        return Array((1...(attributes.length + 15) / 16).flatMap { blocks[$0]! }.prefix(attributes.length))
    }

    @Test func aLockedLiteSJobIsWrittenRecordedByIDmAndPassesTheAudit() throws {
        let folder = try JobFolder(rows: 3, tag: "felica-lite-s", lock: true)
        let spec = folder.sim("felica-lite-s", uid: "012EA00000000001", options: "count=3")
        let run = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Type 3 airtime includes modelled FeliCa Lite-S processing times"))
        let rows = try folder.query("SELECT row, uid, state, chip, family, locked FROM records ORDER BY row")
        #expect(rows.map { Array($0[2...]) } == Array(repeating: ["done", "felica-lite-s", "type3", "1"], count: 3))
        for row in rows {
            #expect(row[1].count == 16 && row[1].hasPrefix("012EA0"), "the 12FC Polling's IDm: \(row[1])")
            let blocks = try Self.blocks(folder, idm: row[1])
            let message = try NDEFMessage(bytes: try Self.message(blocks))
            let uri = message.records.first?.wellKnownTypeURIPayload()?.absoluteString ?? ""
            #expect(uri.hasPrefix("https://example.com/p/SKU-\(row[0])/") && uri.hasSuffix("?u=\(row[1])"), "\(uri)")
            #expect(FeliCaMemoryConfiguration(blocks[FeliCaLiteS.mc]!).isPermanentlyReadOnly)
            #expect(try Type3AttributeBlock(blocks[0]!).rwFlag == 0)
        }
        let audit = try ProvisionProcess.run(
            ["audit", "job.json", "--reader", "sim:felica-lite-s?store=\(folder.store.path)", "--json"],
            directory: folder.url)
        #expect(audit.status == 0, "\(audit.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any])
        #expect(object["passed"] as? Bool == true && object["tags"] as? Int == 3)

        let inspect = try ProvisionProcess.run(
            ["inspect", "--reader", folder.sim("felica-lite-s", uid: "012EA00000000001", options: "count=1")],
            directory: folder.url)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        for line in [
            "UID         012EA00000000001 (FeliCa IDm)", "IDm         01 2E A0 00 00 00 00 01",
            "PMm         00 F1 00 00 00 01 43 00, IC type F1 (FeliCa Lite-S)",
            "Systems     12 FC, 88 B4", "RWFlag 00", "MC          FF FF 00 01 07 01 00 00 FF 3F FF 3F",
        ] {
            #expect(inspect.stdout.contains(line), "\(line) in \(inspect.stdout)")
        }
        // The tag now refuses writes: `write` finds it read-only and changes nothing.
        let before = try Self.blocks(folder, idm: "012EA00000000001")
        let write = try ProvisionProcess.run(
            [
                "write", "--reader", folder.sim("type3", uid: "012EA00000000001", options: "count=1"), "--uri",
                "https://x.y",
            ],
            directory: folder.url)
        #expect(write.status != 0 && write.stderr.contains("readOnly"), "\(write.stderr)")
        #expect(try Self.blocks(folder, idm: "012EA00000000001") == before)
    }

    @Test func writeOnAFreshTagAndAJobOfAnotherFamilyRefused() throws {
        let folder = try JobFolder(rows: 1, tag: "ntag215", lock: false)
        let write = try ProvisionProcess.run(
            [
                "write", "--reader", folder.sim("type3", uid: "012EC00000000001", options: "count=1"), "--uri",
                "https://e.x/1",
            ],
            directory: folder.url)
        #expect(write.status == 0, "\(write.stderr)")
        let blocks = try Self.blocks(folder, idm: "012EC00000000001")
        #expect(try NDEFMessage(bytes: try Self.message(blocks)).records.count == 1)
        #expect(try Type3AttributeBlock(blocks[0]!).writeFlag == 0)
        let run = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim("felica-lite-s", uid: "012ED00000000001", options: "count=1")],
            directory: folder.url)
        #expect(run.status != 0)
        #expect(try folder.query("SELECT DISTINCT state FROM records") == [["pending"]])
    }

    @Test func tornTagsArePresentedAgainAndFinish() throws {
        let folder = try JobFolder(rows: 6, tag: "type3", lock: true)
        let spec = folder.sim("felica-lite-s", uid: "012EE00000000001", options: "count=6&seed=3&faults=tear:0.5")
        let run = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try folder.query("SELECT DISTINCT state FROM records") == [["done"]])
        #expect(try folder.query("SELECT COUNT(*) FROM attempts WHERE outcome != 'done'").first != ["0"])
    }
}
