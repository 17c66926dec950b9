import Foundation
import Ledger
import Support

extension LedgerStore {
    /// A keyed NTAG 424 DNA as `run` leaves it in the ledger, for verifier tests: the next pending row of `job`
    /// claimed by `uid` and done, with K0–K4 journaled from the delivery keys to version 1 (the key numbers in
    /// `abandoned` left abandoned instead of done).
    ///
    /// - Throws: `HarnessError` when no row is pending; ledger errors.
    public func markKeyedTagDone(job: String, uid: [UInt8], abandoned: Set<Int> = []) async throws {
        guard let claimed = try await claim(job: job, reader: "sim0", uid: uid) else {
            throw HarnessError("no pending row of job \(job) for \(uid)")
        }
        let tag = TagRecord(
            uid: uid, chip: "ntag424", bytesSHA256: [], byteCount: 0, locked: true, writtenAt: Date(), family: "type4")
        let attempt = AttemptRecord(
            uid: uid, row: claimed.row, reader: "sim0", outcome: .done, startedAt: Date(), finishedAt: Date())
        _ = try await markDone(job: job, row: claimed.row, uid: uid, tag: tag, attempt: attempt)
        for number in 0...4 {
            let change = KeyChange(
                uid: uid, keyNumber: number, oldVersion: 0, newVersion: 1, keyID: "brand.K\(number)",
                oldFingerprint: "factory", newFingerprint: "fp\(number)")
            try await intendKeyChange(job: job, change)
            try await resolveKeyChange(
                job: job, uid: uid, keyNumber: number, as: abandoned.contains(number) ? .abandoned : .done)
        }
    }
}
