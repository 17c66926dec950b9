import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import TestSupport
import Testing

/// A keyed NTAG 424 DNA SUN job folder (`https://e.io/t/{{sku}}?p={{sun.picc}}&m={{sun.mac}}`, master key in
/// `BRAND_KEY`), its ledger with done rows put in through the ledger's API (keyed `run` does not exist yet), and
/// emulated tags personalised with the job's diversified keys, read like a phone.
struct SUNTapJob {
    static let masterHex = "A1B2C3D4E5F60718293A4B5C6D7E8F90"
    let folder: JobFolder
    var env: [String: String] { ["BRAND_KEY": Self.masterHex] }

    /// `extra`: more manifest members, each after a comma (`, "public": ["sku"]`).
    init(
        macInput: String = "picc", uri: String = "https://e.io/t/{{sku}}?p={{sun.picc}}&m={{sun.mac}}",
        extra: String = ""
    ) async throws {
        folder = try JobFolder(
            rows: 3, tag: "ntag424",
            extra: #", "keys": {"brand": {"env": "BRAND_KEY"}}, "#
                + #""ntag424": {"master": "brand", "systemIdentifier": "sun-cli", "macInput": "\#(macInput)"}"#
                + extra)
        let template = #"{"records": [{"type": "uri", "uri": "\#(uri)"}]}"#
        try Data(template.utf8).write(to: folder.url.appendingPathComponent("template.json"))
        try FileManager.default.createDirectory(at: folder.reports, withIntermediateDirectories: true)
        let ledger = try await Ledger.open(path: folder.ledger.path)
        try await ledger.registerJob(name: folder.job, manifestHash: "m", templateHash: "t")
        let rows = (1...3).map { RowInput(row: $0, fields: Self.fields($0), messageSHA256: [], messageLength: 0) }
        try await ledger.addRows(job: folder.job, rows: rows)
    }

    static func fields(_ row: Int) -> [String: String] { ["sku": "SKU-\(row)", "name": "Item \(row)"] }

    /// The job's K0–K4 of `uid` under the master key `masterHex`, as hex.
    func keyHex(uid: [UInt8], masterHex: String = Self.masterHex) throws -> [String] {
        let manifest = try Manifest.load(
            from: folder.url.appendingPathComponent("job.json"), currentDirectory: folder.url)
        let options = try #require(manifest.keyed?.options as? NTAG424JobOptions)
        let master = SecretKey(id: "brand", bytes: try #require(Hex.bytes(masterHex)))
        let keys = NTAG424JobKeys(master: master, systemIdentifier: options.systemIdentifier)
        return try keys.keys(uid: uid).compactMap(\.hexForDisplay)
    }

    /// A tag `uid` carrying `row` with the message and file settings the template gives it, keys at version 1.
    func tag(uid: [UInt8], row: Int = 1, masterHex: String = Self.masterHex) throws -> SUNTag {
        let manifest = try Manifest.load(
            from: folder.url.appendingPathComponent("job.json"), currentDirectory: folder.url)
        let template = try Template.load(for: manifest)
        let jobRow = JobRow(row: row, line: row + 1, fields: Self.fields(row))
        let late = LateBound(uid: uid, timestamp: Date())
        let layout = try template.dynamicLayout(row: jobRow, late: late, manifest: manifest)
        let settings = try #require(layout as? SUNLayout).fileSettings
        let keys = try keyHex(uid: uid, masterHex: masterHex).map { try #require(Hex.bytes($0)) }
        return try SUNTag(
            uid: uid, message: try template.render(row: jobRow, late: late).bytes, settings: settings, keys: keys,
            version: 1)
    }

    /// Records `uid` done on the next pending row, with K0–K4 journaled as changed to version 1.
    func markDone(uid: [UInt8]) async throws {
        let (ledger, job) = (try await Ledger.open(path: folder.ledger.path), folder.job)
        try await ledger.markKeyedTagDone(job: job, uid: uid)
    }

    /// `provision verify-url URL --manifest job.json EXTRA…` in the job folder.
    func verify(_ url: String, _ extra: [String] = [], env: [String: String]? = nil) async throws
        -> ProvisionProcess.Outcome
    {
        let (folder, env) = (folder, env ?? self.env)
        return try await onThread {
            try ProvisionProcess.run(
                ["verify-url", url, "--manifest", "job.json"] + extra, directory: folder.url, environment: env)
        }
    }
}
