import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// `provision reissue` (issue 27 item 12): a done row stays final; a destroyed tag's row is issued again
/// as a new linked row, recorded, reported, and programmed with the original row's message.
@Suite(.serialized) struct ReissueCommandTests {
    @Test func aDestroyedTagsRowIsReissuedAndTheNextTagGetsTheSameMessage() throws {
        let folder = try JobFolder(rows: 2, lock: false)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let first = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000001", options: "count=2"), "--quiet"],
            directory: folder.url)
        #expect(first.status == 0, "\(first.stderr)")
        // release refuses a done row and points to reissue.
        let release = try ProvisionProcess.run(["release", "job.json", "--row", "1"], directory: folder.url)
        #expect(release.status == 65 && release.stderr.contains("provision reissue"), "\(release.stderr)")
        let noReason = try ProvisionProcess.run(["reissue", "job.json", "--row", "1"], directory: folder.url)
        #expect(noReason.status == 64 && noReason.stderr.contains("--reason"), "\(noReason.stderr)")
        let reissue = try ProvisionProcess.run(
            ["reissue", "job.json", "--row", "1", "--reason", "crushed in packing", "--by", "alice"],
            directory: folder.url)
        #expect(
            reissue.status == 0 && reissue.stdout.contains("reissued as row 3"), "\(reissue.stdout)\(reissue.stderr)")
        #expect(try folder.query("SELECT state, uid FROM records WHERE row = 1") == [["done", "04000000000001"]])
        #expect(try folder.query("SELECT state, reissue_of FROM records WHERE row = 3") == [["pending", "1"]])
        let event = try folder.query("SELECT actor, detail FROM events WHERE kind = 'reissue'")
        #expect(event == [["alice", "reissue of row 1 (uid 04000000000001): crushed in packing"]])
        // The next tag gets row 3 with row 1's message (same serial), under its own UID.
        let second = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000101", options: "count=1"), "--quiet"],
            directory: folder.url)
        #expect(second.status == 0, "\(second.stderr)")
        let image = [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("04000000000101.bin")))
        let message = try NDEFMessage(bytes: try NDEFTLV.extractMessage(fromArea: Array(image[16..<512])))
        let uri = message.records.first?.wellKnownTypeURIPayload()?.absoluteString
        #expect(uri == "https://example.com/p/SKU-1/S00001?u=04000000000101", "\(uri ?? "-")")
        let summary = try String(contentsOf: folder.reports.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("## Reissued rows") && summary.contains("| 3 | 1 | alice |"), "\(summary)")
        let json = try String(contentsOf: folder.reports.appendingPathComponent("summary.json"), encoding: .utf8)
        #expect(json.contains("\"original_row\" : 1"), "\(json)")
        // Reissuing a row that is not done is refused.
        let pending = try ProvisionProcess.run(
            ["reissue", "job.json", "--row", "9", "--reason", "x"], directory: folder.url)
        #expect(pending.status == 65, "\(pending.stderr)")
    }
}
