import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import TestSupport

/// A keyed job on the TestSupport-only keyed family (`KeyedMemoryFamily`), built from its seams as `JobContext`
/// builds a manifest's: the scheme's keys, its layout of each row's dynamic message, the line and audit options.
enum KeyedMemoryFixture {
    static let master = SecretKey(id: "brand", bytes: Array(0x10...0x1F))
    static let scheme = KeyedMemoryScheme()
    static let message = KeyedMemoryMessage()
    /// The shipped families, then this one, in the order `TagFamilies.register` puts it (its SAK must reach it).
    static let families = TagFamilies(TagFamilies.shipped.families + [KeyedMemoryFamily()])
    static let keyed = KeyedJob(scheme: scheme, options: KeyedMemoryScheme.Options(masterKeyID: master.id))

    /// The row's URL as written: the windows hold zeros.
    static func url(row: Int) -> String {
        let zeros = KeyedMemoryToken.allCases.map { $0.token.filler(marked: false) }
        return "https://example.com/k/\(row)?u=\(zeros[0])&c=\(zeros[1])&m=\(zeros[2])"
    }

    /// The row's NDEF message.
    static func bytes(row: Int) -> [UInt8] { NDEFMessage(records: [NDEFPayload.uri(url(row: row))]).bytes }

    /// The row's layout: each window found after its query parameter in the encoded message.
    static func layout(row: Int) -> any DynamicMessageLayout {
        let bytes = bytes(row: row)
        var offsets: [DynamicToken: Int] = [:]
        for (token, parameter) in zip(KeyedMemoryToken.allCases, ["?u=", "&c=", "&m="]) {
            let pattern = Array(parameter.utf8)
            let start = (0...(bytes.count - pattern.count)).first { Array(bytes[$0..<$0 + pattern.count]) == pattern }
            offsets[token.token] = (start ?? 0) + pattern.count
        }
        return message.layout(messageOffsets: offsets, options: options)
    }

    static let options = DynamicMessageOptions(rights: .never, macCoversMessage: false)

    /// The line's job: keyed, permanent, `tries` tries.
    static func lineJob(_ name: String, tries: Int = 2) -> LineJob {
        var job = LineJob(
            name: name, acceptedChips: [KeyedMemoryFamily.chip], lock: false, tries: tries, onFailure: .reuse
        ) { row, _, _, _ in bytes(row: row) }
        job.keyed = KeyedLineOptions(job: keyed, master: master, permanent: true) { row, _, _ in layout(row: row) }
        return job
    }

    /// How `audit` judges the job's tags.
    static func audit(deep: Bool) -> KeyedAudit {
        KeyedAudit(
            scheme: message, keys: keyed.tagKeys(master: master), template: { row, _, _ in bytes(row: row) },
            layout: { row, _, _ in layout(row: row) }, deep: deep)
    }

    /// A SQLite ledger in `folder` with `rows` pending rows of `job`.
    static func ledger(_ folder: URL, job: String, rows: Int) async throws -> Ledger {
        let ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
        try await ledger.registerJob(name: job, manifestHash: "m", templateHash: "t")
        let inputs = (1...rows).map { RowInput(row: $0, fields: [:], messageSHA256: [], messageLength: 0) }
        try await ledger.addRows(job: job, rows: inputs)
        return ledger
    }

    /// The job's K0 and K1 of `uid`.
    static func keys(_ uid: [UInt8]) throws -> [[UInt8]] {
        try KeyedMemoryScheme.keys(master: master, uid: uid).map(\.bytes)
    }
}
