import Foundation
import Ledger

extension LedgerStore {
    /// Job `job` registered (if new) with `count` more rows, each claimed by `reader` and done: one `done` outbox
    /// event a row, in row order, for the publisher tests. Rows are numbered on from the job's last one.
    ///
    /// - Returns: the rows made done.
    @discardableResult
    public func addDoneRows(job: String, count: Int, reader: String = "st1/sim0") async throws -> [Int] {
        if try await self.job(named: job) == nil {
            try await registerJob(name: job, manifestHash: "manifest", templateHash: "template")
        }
        let first = (try await self.records(job: job).map(\.row).max() ?? 0) + 1
        let rows = Array(first..<(first + count))
        _ = try await addRows(
            job: job,
            rows: rows.map {
                RowInput(
                    row: $0, fields: ["serial": "S\($0)"], messageSHA256: Array(repeating: 1, count: 32),
                    messageLength: 40)
            })
        for row in rows {
            let uid: [UInt8] = [0x04, 0xA0, UInt8(row >> 16 & 0xFF), UInt8(row >> 8 & 0xFF), UInt8(row & 0xFF), 1, 2]
            guard let claimed = try await claim(job: job, reader: reader, uid: uid) else {
                throw HarnessError("no pending row of job \(job) for row \(row)")
            }
            let tag = TagRecord(
                uid: uid, chip: "NTAG215", bytesSHA256: Array(repeating: 2, count: 32), byteCount: 48, locked: true,
                writtenAt: Date())
            let attempt = AttemptRecord(
                uid: uid, row: claimed.row, reader: reader, outcome: .done, startedAt: Date(), finishedAt: Date())
            _ = try await markDone(job: job, row: claimed.row, uid: uid, tag: tag, attempt: attempt)
        }
        return rows
    }
}
