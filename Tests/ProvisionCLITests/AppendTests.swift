import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// Read-modify-write (issue 27 item 15): `provision write --append` and a manifest's `"mode": "append"`.
@Suite(.serialized) struct AppendTests {
    /// The NDEF message stored in a tag image (NTAG215 layout).
    private func storedMessage(_ image: [UInt8]) throws -> NDEFMessage {
        try NDEFMessage(bytes: try NDEFTLV.extractMessage(fromArea: Array(image[16..<512])))
    }

    @Test func writeAppendKeepsTheExistingRecordsAndPrintsTheOriginal() throws {
        let store = try SimStore()
        defer { store.remove() }
        #expect(
            try ProvisionProcess.run(["write", "--reader", store.spec(), "--uri", "https://example.com"]).status == 0)
        let original = try storedMessage(try store.image()).bytes
        let append = try ProvisionProcess.run(
            ["write", "--reader", store.spec(), "--append", "--text", "batch 7", "--json"])
        #expect(append.status == 0, "\(append.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(append.stdout.utf8)) as? [String: Any])
        #expect(report["original_message_hex"] as? String == Hex.string(original))
        let message = try storedMessage(try store.image())
        #expect(message.records.count == 2)
        #expect(message.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://example.com")
        #expect(report["message_hex"] as? String == Hex.string(message.bytes))
        let text = try ProvisionProcess.run(["write", "--reader", store.spec(), "--append", "--text", "more"])
        #expect(text.status == 0 && text.stdout.contains("Original  \(Hex.string(message.bytes))"), "\(text.stdout)")
        #expect(text.stdout.contains("3 records"), "\(text.stdout)")
    }

    @Test func capacityIsCheckedOnTheCombinedMessage() throws {
        let store = try SimStore(chip: "ntag213")
        defer { store.remove() }
        let first = try ProvisionProcess.run(
            ["write", "--reader", store.spec(), "--text", String(repeating: "a", count: 100)])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try store.image()
        let append = try ProvisionProcess.run(
            ["write", "--reader", store.spec(), "--append", "--text", String(repeating: "b", count: 40)])
        #expect(append.status == 1 && append.stderr.contains("error: capacity:"), "\(append.stderr)")
        #expect(try store.image() == before)
    }

    @Test func nonNDEFContentIsRefusedUnlessReplaced() throws {
        let store = try SimStore()
        defer { store.remove() }
        #expect(
            try ProvisionProcess.run(["write", "--reader", store.spec(), "--uri", "https://example.com"]).status == 0)
        var image = try store.image()
        image[16..<24] = [0x03, 0x04, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE, 0x00]  // a TLV holding 4 bytes that are no record
        try Data(image).write(to: store.directory.appendingPathComponent("\(store.uid).bin"))
        let refused = try ProvisionProcess.run(["write", "--reader", store.spec(), "--append", "--text", "x"])
        #expect(refused.status == 1 && refused.stderr.contains("error: notNDEF:"), "\(refused.stderr)")
        #expect(try store.image() == image)
        let replaced = try ProvisionProcess.run(
            ["write", "--reader", store.spec(), "--append", "--replace", "--text", "x"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try storedMessage(try store.image()).records.count == 1)
        let misuse = try ProvisionProcess.run(["write", "--reader", store.spec(), "--replace", "--text", "x"])
        #expect(misuse.status == 64)
    }

    /// A run in append mode keeps each tag's message, records it before writing, and a tag torn mid-append
    /// ends with original + new exactly once (the ledger's original, not the half-written tag, is reused).
    @Test func anAppendJobRecordsTheOriginalAndATornAppendFinishesWhole() throws {
        let folder = try JobFolder(rows: 2, lock: false, extra: #", "mode": "append""#)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        // Two tags that already hold a message (e.g. a vendor URL written at the factory).
        for uid in ["04000000000001", "04000000000002"] {
            let seed = try ProvisionProcess.run(
                [
                    "write", "--reader", "sim:ntag215?uid=\(uid)&store=\(folder.store.path)", "--uri",
                    "https://vendor.example",
                ])
            #expect(seed.status == 0, "\(seed.stderr)")
        }
        let torn = try ProvisionProcess.run(
            [
                "run", "job.json", "--reader",
                folder.sim(uid: "04000000000001", options: "count=1&faults=tear:1&seed=5"),
                "--quiet",
            ], directory: folder.url)
        #expect(torn.status == 1, "\(torn.stderr)")
        let finish = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000001", options: "count=2"), "--quiet"],
            directory: folder.url)
        #expect(finish.status == 0, "\(finish.stderr)")
        for uid in ["04000000000001", "04000000000002"] {
            let image = [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("\(uid).bin")))
            let records = try storedMessage(image).records
            #expect(records.count == 3, "\(uid): \(records.count) records")
            #expect(records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://vendor.example")
        }
        let originals = try folder.query("SELECT count(*) FROM records WHERE original_message IS NOT NULL")
        #expect(originals == [["2"]])
        let audit = try ProvisionProcess.run(
            ["audit", "job.json", "--reader", folder.sim(uid: "04000000000001", options: "count=2"), "--quiet"],
            directory: folder.url)
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
    }
}
