import Foundation

@testable import Ledger

/// A fresh folder for one test's ledger files, removed when the value goes away.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A path inside the folder.
    func path(_ name: String = "ledger.sqlite") -> String { url.appendingPathComponent(name).path }
}

/// Sample data shared by the ledger tests.
enum Sample {
    static let manifestHash = String(repeating: "ab", count: 32)
    static let templateHash = String(repeating: "cd", count: 32)
    static let time = Date(timeIntervalSince1970: 1_800_000_000.125)

    static func uid(_ n: Int) -> [UInt8] {
        [
            0x04, 0xA1, 0xB2, UInt8(truncatingIfNeeded: n >> 24), UInt8(truncatingIfNeeded: n >> 16),
            UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n),
        ]
    }

    static func digest(_ n: Int) -> [UInt8] { (0..<32).map { UInt8(truncatingIfNeeded: $0 &+ n) } }

    static func rows(_ numbers: some Sequence<Int>) -> [RowInput] {
        numbers.map {
            RowInput(row: $0, fields: ["serial": "S\($0)"], messageSHA256: digest($0), messageLength: 40 + $0 % 7)
        }
    }

    static func tag(_ uid: [UInt8], locked: Bool = true) -> TagRecord {
        TagRecord(
            uid: uid, chip: "NTAG215", bytesSHA256: digest(99), byteCount: 48, locked: locked,
            signatureStatus: "valid", writtenAt: time)
    }

    static func attempt(
        _ uid: [UInt8], row: Int?, outcome: AttemptRecord.Outcome = .done,
        failureClass: String? = nil, phase: String? = nil, page: Int? = nil
    ) -> AttemptRecord {
        AttemptRecord(
            uid: uid, row: row, reader: "sim0", outcome: outcome, failureClass: failureClass,
            failureDetail: failureClass.map { "detail of \($0)" }, phase: phase, page: page,
            durations: .init(
                detect: 1_000, identify: 2_000, write: 30_000, verify: 9_000, lock: nil, ledger: 800,
                removal: 120_000),
            exchanges: 17, modelledAirtimeMicroseconds: 21_500, startedAt: time,
            finishedAt: time.addingTimeInterval(0.25))
    }

    /// A ledger at `path` with job `j` registered and rows `1...count` pending.
    static func ledger(at path: String, rows count: Int) async throws -> Ledger {
        let ledger = try await Ledger.open(path: path)
        try await ledger.registerJob(name: "j", manifestHash: manifestHash, templateHash: templateHash)
        try await ledger.addRows(job: "j", rows: rows(1...count))
        return ledger
    }
}
