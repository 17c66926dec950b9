import Foundation
import Ledger
import NDEF
import NFCTags

/// `mode: append`: the tag's existing message, kept in the ledger before anything is written.
extension LineWorker {
    /// The message to write for an append: the original (as recorded at the row's first presentation,
    /// else read now — READ/FAST_READ of the NDEF TLV — and recorded, synced, before any write) followed
    /// by the rendered records.
    func appendedMessage(
        claim: ClaimedRow, detected: DetectedTag, rendered: [UInt8]
    ) async throws -> Result<[UInt8], CycleFailure> {
        let uid = detected.uid
        var original = claim.originalMessage
        if original == nil {
            let bytes: [UInt8]
            switch await readExistingMessage(detected) {
            case .success(let reading): bytes = reading.message
            case .failure(let failure): return .failure(failure)
            }
            original = try await ledger.recordOriginalMessage(job: job.name, row: claim.row, uid: uid, message: bytes)
        }
        do {
            return .success(try AppendMessage.combine(original: original ?? [], new: rendered))
        } catch {
            return .failure(error)
        }
    }

    /// The tag's NDEF message through one reader call (the pipeline's read step).
    private func readExistingMessage(_ detected: DetectedTag) async -> Result<TagPipeline.Reading, CycleFailure> {
        do {
            let families = families
            return try await reader.withTransceiver {
                TagPipeline.read(on: $0, activation: detected, families: families)
            }
        } catch {
            return .failure(CycleFailure(classifying: error, phase: .identify))
        }
    }

    /// An append that cannot start (unreadable or non-NDEF content): the attempt is recorded, nothing was
    /// written, the row goes back to pending (or stays with a resumed UID), the tag is released.
    func refuseAppend(claim: ClaimedRow, uid: [UInt8], failure: CycleFailure, started: Date) async throws {
        let uidText = Hex.compact(uid)
        events(.failed(reader: readerName, uid: uidText, row: claim.row, failure: failure, willRetry: false))
        let attempt = failedAttempt(uid: uid, row: claim.row, failure: failure, started: started)
        try await ledger.recordAttempt(job: job.name, attempt)
        let returned = failure.failureClass != .tagLost && !claim.resumed
        if returned {
            try await ledger.returnToPending(
                job: job.name, row: claim.row, detail: "\(failure.failureClass.rawValue): nothing written")
        }
        var outcome = RowOutcome(
            job: job.name, row: claim.row, uid: uid, reader: readerName,
            resolution: returned ? .returnedToPending : .held)
        outcome.resumed = claim.resumed
        outcome.failure = failure
        outcome.attempt = attempt
        report(outcome)
        usable.failed(failure.failureClass)
        if failure.failureClass != .tagLost {
            await signal(.fail)
            try await remove(uidText)
        }
    }
}
