import Foundation
import Ledger
import NFCTags
import Support

extension LineWorker {
    /// The removal step of a done tag: the reader releases it and the operator is prompted until it leaves; after
    /// the job's last row the run ends at once instead, whether or not the tag is taken away (a jig). Its ledger
    /// and removal times are kept for one batched write (`LateTimings`).
    func removeDone(_ tag: ClaimedTag, openRows: Bool, ledgerMicroseconds: Int) async throws {
        var removal: Int?
        if openRows {
            let removalStart = clock.now
            try await remove(tag.uidText)
            removal = (clock.now - removalStart).wholeMicroseconds
        } else {
            events(.jobCompleteTagLeft(reader: readerName, uid: tag.uidText))
        }
        let pending = lateTimings.add(
            Ledger.LateTiming(
                uid: tag.uid, row: tag.claim.row, ledgerMicroseconds: ledgerMicroseconds, removalMicroseconds: removal))
        if pending >= 64 { try await flushTimings() }
    }

    /// The removal step of a tag whose last try failed: the fail signal and the release; a lost tag has left the
    /// field already, and the next poll finds it only when it is presented again.
    func removeFailed(_ tag: ClaimedTag, failure: CycleFailure) async throws {
        guard failure.failureClass != .tagLost else { return }
        await signal(.fail)
        try await remove(tag.uidText)
    }

    /// Shows the outcome on readers that can (ACR122U LED and buzzer), before the release; best effort.
    func signal(_ outcome: TagCycleOutcome) async {
        guard settings.feedback, let feedback = reader as? any OperatorFeedbackReader else { return }
        await feedback.signal(outcome)
    }

    /// Releases the tag and waits for it to leave, prompting until it does.
    func remove(_ uid: String) async throws {
        try await readerCalls.remove { events(.removeTag(reader: readerName, uid: uid)) }
    }

    /// Writes the batched ledger and removal timings.
    func flushTimings() async throws {
        try await ledger.recordLateTimings(job: job.name, lateTimings.drain())
    }
}
