import Foundation
import NDEF
import TestSupport
import Testing

/// `run`, `write`, `inspect` and `audit` on simulated Type 5 tags (`sim:icode-slix2`, `sim:icode-slix`,
/// `sim:st25tv02k`), driven as a line engineer runs them: the processes, the ledger file and the tag images.
@Suite(.serialized) struct Type5RunTests {
    /// A stored Type 5 image: the memory, then one security status byte per block.
    static func image(_ folder: JobFolder, uid: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("\(uid).bin")))
    }

    /// The NDEF message of a 4-byte-CC image's TLV at byte 4.
    static func message(in image: [UInt8]) -> [UInt8] {
        guard image.count > 6, image[4] == 0x03 else { return [] }
        if image[5] == 0xFF {
            let length = Int(image[6]) << 8 | Int(image[7])
            return Array(image[8..<8 + length])
        }
        return Array(image[6..<6 + Int(image[5])])
    }

    @Test func anICODESLIX2JobIsWrittenLockedRecordedAsType5AndPassesTheAudit() throws {
        let folder = try JobFolder(rows: 3, tag: "icode-slix2", lock: true)
        let spec = folder.sim("icode-slix2", uid: "E004010800000001", options: "count=3")
        let run = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Type 5 airtime includes a modelled EEPROM programming time"))
        let rows = try folder.query("SELECT row, uid, state, chip, family, locked FROM records ORDER BY row")
        #expect(rows.map { Array($0[2...]) } == Array(repeating: ["done", "icode-slix2", "type5", "1"], count: 3))
        for row in rows {
            #expect(row[1].count == 16 && row[1].hasPrefix("E0040108"), "\(row[1])")
            let image = try Self.image(folder, uid: row[1])
            #expect(image.count == 80 * 4 + 80 && image[1] == 0x43, "the CC's write access is 11b")
            let message = try NDEFMessage(bytes: Self.message(in: image))
            let uri = message.records.first?.wellKnownTypeURIPayload()?.absoluteString ?? ""
            #expect(uri.hasPrefix("https://example.com/p/SKU-\(row[0])/") && uri.hasSuffix("?u=\(row[1])"), "\(uri)")
            let lastBlock = (4 + 2 + Self.message(in: image).count) / 4
            #expect(image[320...(320 + lastBlock)].allSatisfy { $0 == 0x01 }, "CC and NDEF blocks locked")
            #expect(image[(321 + lastBlock)...].allSatisfy { $0 == 0x00 }, "the rest is not")
        }
        let audit = try ProvisionProcess.run(
            ["audit", "job.json", "--reader", "sim:icode-slix2?store=\(folder.store.path)", "--json"],
            directory: folder.url)
        #expect(audit.status == 0, "\(audit.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any])
        #expect(object["passed"] as? Bool == true && object["tags"] as? Int == 3)
        let inspect = try ProvisionProcess.run(
            ["inspect", "--reader", folder.sim("icode-slix2", uid: "E004010800000002", options: "count=1")],
            directory: folder.url)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("E004010800000002") && inspect.stdout.contains("ICODE SLIX2"))
        #expect(inspect.stdout.contains("readOnly, capacity 308 bytes"), "\(inspect.stdout)")
        // The locked tag refuses a new message: `write` finds it read-only and changes nothing.
        let before = try Self.image(folder, uid: "E004010800000001")
        let write = try ProvisionProcess.run(
            [
                "write", "--reader", folder.sim("icode-slix2", uid: "E004010800000001", options: "count=1"),
                "--uri", "https://example.com/x",
            ],
            directory: folder.url)
        #expect(write.status != 0 && write.stderr.contains("readOnly"), "\(write.stderr)")
        #expect(try Self.image(folder, uid: "E004010800000001") == before)
    }

    @Test func writeOnAnICODESLIXLeavesTheReferencesExampleImage() throws {
        let folder = try JobFolder(rows: 1, tag: "icode-slix")
        let write = try ProvisionProcess.run(
            [
                "write", "--reader", folder.sim("icode-slix", uid: "E004015000000001", options: "count=1"),
                "--uri", "https://example.com",
            ],
            directory: folder.url)
        #expect(write.status == 0, "\(write.stderr)")
        #expect(write.stdout.contains("Blocks    written 01h 02h 03h 04h 05h 01h"), "\(write.stdout)")
        let image = try Self.image(folder, uid: "E004015000000001")
        // docs/reference/type5.md §2.2:
        // E1 40 0E 01 | 03 10 D1 01 | 0C 55 04 65 | 78 61 6D 70 | 6C 65 2E 63 | 6F 6D FE 00.
        #expect(
            Hex.string(image.prefix(24)) == "E1 40 0E 01 03 10 D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D FE 00")
        let inspect = try ProvisionProcess.run(
            ["inspect", "--reader", folder.sim("icode-slix", uid: "E004015000000001", options: "count=1")],
            directory: folder.url)
        #expect(inspect.stdout.contains("https://example.com") && inspect.stdout.contains("readWrite"))
    }

    @Test func preFlightSizesTheUIDAtSixteenHexDigitsAndTheChipsCapacity() throws {
        let folder = try JobFolder(rows: 1, tag: "st25tv02k")
        let validate = try ProvisionProcess.run(["validate", "job.json"], directory: folder.url)
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stdout.contains("ST25TV02K") && validate.stdout.contains("capacity: 242 bytes"))
        // https://example.com/p/SKU-1/S00001?u= + 16 digits, and the text record "Item 1".
        #expect(validate.stdout.contains("max 63 bytes"), "\(validate.stdout)")
    }

    @Test func blankTagsAreFormattedWhenTheJobSaysSo() throws {
        let folder = try JobFolder(rows: 2, tag: "icode-slix", lock: false, extra: #", "format": true"#)
        let spec = folder.sim("icode-slix", uid: "E004015000000001", options: "count=2&faults=unformatted:1")
        let run = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try folder.query("SELECT DISTINCT state FROM records") == [["done"]])
        let image = try Self.image(folder, uid: "E004015000000002")
        #expect(Array(image.prefix(4)) == [0xE1, 0x40, 0x0E, 0x01] && !Self.message(in: image).isEmpty)
    }

    /// The PN532 front end refuses Type 5 populations (`emulate vpcd` serves them: `RunPCSCType5Tests`).
    @Test func thePN532FrontEndRefusesType5Tags() throws {
        let folder = try JobFolder(rows: 1, tag: "icode-slix")
        let emulate = try ProvisionProcess.run(["emulate", "pn532", "--tags", "sim:icode-slix"], directory: folder.url)
        #expect(emulate.status == 64 && emulate.stderr.contains("a PN532 cannot reach ISO 15693"), "\(emulate.stderr)")
    }

    @Test func aJobForAnotherFamilyRefusesAType5Tag() throws {
        let folder = try JobFolder(rows: 1, tag: "ntag215", lock: false)
        let run = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim("type5", uid: "E016000000000001", options: "count=1")],
            directory: folder.url)
        #expect(run.status != 0)
        #expect(try folder.query("SELECT DISTINCT state FROM records") == [["pending"]])
    }
}
