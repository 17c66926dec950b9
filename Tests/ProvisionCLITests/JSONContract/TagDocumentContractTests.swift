import Foundation
import TestSupport
import Testing

/// The documents of the one-tag commands (`write`, `lock`, `inspect`) and the error document, each run as a user
/// runs it on a simulated tag and checked against its schema in docs/schemas (docs/json.md, version 2).
@Suite struct TagDocumentContractTests {
    @Test func writeOnAType2TagCountsPagesAndOnAType4TagOffsets() throws {
        let store = try SimStore()
        defer { store.remove() }
        let type2 = try JSONContract.check(
            try ProvisionProcess.run([
                "write", "--json", "--uri", "https://example.com/a", "--lock", "--reader", store.spec(),
            ]),
            schema: "write")
        #expect(type2["unit_kind"] as? String == "page" && (type2["written_units"] as? [Int])?.isEmpty == false)
        #expect((type2["lock_writes"] as? [[String: Any]])?.first?["unit"] is Int, "\(type2)")
        let type4Store = try SimStore(chip: "ntag424")
        defer { type4Store.remove() }
        let type4 = try JSONContract.check(
            try ProvisionProcess.run([
                "write", "--json", "--uri", "https://example.com/b", "--reader", type4Store.spec(),
            ]),
            schema: "write")
        #expect(type4["unit_kind"] as? String == "offset", "\(type4)")
    }

    @Test func lockNamesItsUnits() throws {
        let store = try SimStore(chip: "ntag213")
        defer { store.remove() }
        let object = try JSONContract.check(
            try ProvisionProcess.run(["lock", "--json", "--yes", "--reader", store.spec()]), schema: "lock")
        #expect(object["outcome"] as? String == "locked" && object["unit_kind"] as? String == "page")
        #expect((object["read_back"] as? [[String: Any]])?.isEmpty == false, "\(object)")
    }

    @Test func inspectWithADumpOfAWrittenTag() throws {
        let store = try SimStore()
        defer { store.remove() }
        let write = try ProvisionProcess.run(["write", "--uri", "https://example.com/i", "--reader", store.spec()])
        #expect(write.status == 0, "\(write.stderr)")
        let object = try JSONContract.check(
            try ProvisionProcess.run(["inspect", "--json", "--dump", "--reader", store.spec()]), schema: "inspect")
        #expect(object["unit_kind"] as? String == "page" && (object["units"] as? [String])?.isEmpty == false)
        let records = (object["ndef"] as? [String: Any])?["records"] as? [[String: Any]]
        #expect((records?.first?["record"] as? [String: Any])?["uri"] as? String == "https://example.com/i")
        #expect(object["locks"] is [String: Any] && object["protection"] is [String: Any], "\(object)")
    }

    @Test func anErrorIsTheErrorDocument() throws {
        let object = try JSONContract.check(
            try ProvisionProcess.run(["inspect", "--json", "--timeout", "x"]), schema: "error", status: 64)
        #expect((object["error"] as? [String: Any])?["field"] as? String == "--timeout")
    }
}
