import Foundation
import Ledger
import NDEF
import NFCTags
import TestSupport
import Testing

@testable import Provisioning

/// A keyed NTAG 424 DNA SUN job (template `https://e.io/t/{{sku}}?p={{sun.picc}}&m={{sun.mac}}`), its ledger with
/// two pending rows, and emulated tags personalised with the job's keys.
struct SUNJobFixture {
    static let master = SecretKey(id: "brand", bytes: Array(0x10...0x1F))
    static let uid: [UInt8] = [0x04, 0x42, 0x4D, 0x00, 0x00, 0x00, 0x01]

    let folder: JobFolder
    let manifest: Manifest
    let template: Template
    let options: NTAG424JobOptions
    let ledger: Ledger

    init(macInput: NTAG424JobOptions.MACInput = .picc, uri: String? = nil) async throws {
        folder = try JobFolder(
            rows: 2, tag: "ntag424",
            extra: #", "keys": {"brand": {"env": "BRAND_KEY"}}, "#
                + #""ntag424": {"master": "brand", "systemIdentifier": "sun-tests", "macInput": "\#(macInput)"}"#)
        let link = uri ?? "https://e.io/t/{{sku}}?p={{sun.picc}}&m={{sun.mac}}"
        let text = #"{"records": [{"type": "uri", "uri": "\#(link)"}]}"#
        try Data(text.utf8).write(to: folder.url.appendingPathComponent("template.json"))
        manifest = try Manifest.load(from: folder.url.appendingPathComponent("job.json"), currentDirectory: folder.url)
        template = try Template.load(for: manifest)
        options = try #require(manifest.keyed?.options as? NTAG424JobOptions)
        ledger = try await Ledger.open(path: folder.url.appendingPathComponent("ledger.sqlite").path)
        try await ledger.registerJob(name: folder.job, manifestHash: "m", templateHash: "t")
        let rows = (1...2).map { RowInput(row: $0, fields: Self.fields($0), messageSHA256: [], messageLength: 0) }
        try await ledger.addRows(job: folder.job, rows: rows)
    }

    static func fields(_ row: Int) -> [String: String] { ["sku": "SKU-\(row)", "name": "Item \(row)"] }

    /// The job's keys under `master`.
    func keys(master: SecretKey = Self.master) -> NTAG424JobKeys {
        NTAG424JobKeys(master: master, systemIdentifier: options.systemIdentifier)
    }

    /// A tag `uid` carrying `row` as the job would leave it, its K0–K4 diversified from `master`.
    func tag(uid: [UInt8] = Self.uid, row: Int = 1, master: SecretKey = Self.master) throws -> SUNTag {
        let jobRow = JobRow(row: row, line: row + 1, fields: Self.fields(row))
        let late = LateBound(uid: uid, timestamp: Date())
        let message = try template.render(row: jobRow, late: late).bytes
        let layout = try template.dynamicLayout(row: jobRow, late: late, manifest: manifest)
        let settings = try #require(layout as? SUNLayout).fileSettings
        let keys = try keys(master: master).keys(uid: uid).map(\.bytes)
        return try SUNTag(uid: uid, message: message, settings: settings, keys: keys, version: 1)
    }

    /// Records `uid` as done on the next pending row, with K0–K3 journaled at version 1 and K4's change abandoned.
    func markDone(uid: [UInt8] = Self.uid) async throws {
        let job = folder.job
        try await ledger.markKeyedTagDone(job: job, uid: uid, abandoned: [4])
    }

    /// The job's tap layout, as its template and section give it.
    func tapLayout() throws -> any TapLayout {
        try template.tapLayout(scheme: SUNScheme(), options: try #require(manifest.dynamicMessageOptions))
    }

    /// The job's verifier (keys under `master`).
    func verifier(master: SecretKey = Self.master) throws -> TapJobVerifier {
        let keys = keys(master: master)
        return try TapJobVerifier(
            job: folder.job, scheme: SUNScheme(), key: { uid, number in try keys.key(number, uid: uid) },
            layout: try tapLayout())
    }
}
