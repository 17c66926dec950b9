import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// Checks that a job's ledger and its stored tag images (`DIR/<UID>.bin`) agree: every row done
/// exactly once (or, for a stopped job, `done` rows done and the rest pending), each done tag's image
/// holds an NDEF message whose SHA-256 is the ledger's `bytes_sha256` and whose URI names the row's
/// SKU and UID.
///
/// - Returns: the number of rows checked.
@discardableResult
func expectLedgerAndImagesAgree(_ folder: JobFolder, rows: Int, done: Int? = nil, store: URL? = nil) throws -> Int {
    let store = store ?? folder.store
    let done = done ?? rows
    let all = try folder.query("SELECT row, uid, state FROM records ORDER BY row")
    #expect(all.count == rows)
    let records = all.filter { $0.count == 3 && $0[2] == "done" }
    #expect(records.count == done, "\(all.filter { $0.last != "done" })")
    #expect(
        all.allSatisfy { $0.count == 3 && ($0[2] == "done" || $0[2] == "pending") },
        "\(all.filter { $0.last != "done" })")
    let tags = try folder.query(
        "SELECT row, uid, bytes_sha256, locked FROM tags WHERE job = '\(folder.job)' ORDER BY row")
    #expect(tags.count == done)
    #expect(Set(tags.map { $0[1] }).count == done, "a UID holds two rows")
    for (record, tag) in zip(records, tags) {
        #expect(record[0] == tag[0] && record[1] == tag[1], "records and tags disagree: \(record) \(tag)")
        let url = store.appendingPathComponent("\(tag[1]).bin")
        let image = [UInt8](try Data(contentsOf: url))
        let chip = try #require(
            ChipModel.allCases.first { $0.pageCount * 4 == image.count }, "image size \(image.count)")
        let area = Array(image[16..<((chip.lastUserPage + 1) * 4)])
        let message = try NDEFMessage(bytes: try NDEFTLV.extractMessage(fromArea: area))
        #expect(Hex.compact(Crypto256.sha(message.bytes)).lowercased() == tag[2].lowercased(), "row \(tag[0])")
        let uri = message.records.first?.wellKnownTypeURIPayload()?.absoluteString ?? ""
        #expect(uri.hasPrefix("https://example.com/p/SKU-\(tag[0])/") && uri.hasSuffix("?u=\(tag[1])"), "\(uri)")
    }
    return records.count
}
