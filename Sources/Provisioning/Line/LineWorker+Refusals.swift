import Foundation
import Ledger
import NFCTags
import Support

/// What ends a reader's run besides the operator: a run of tags failing with one class, idle time without a
/// usable tag, and a job with no row left for this station to claim.
extension LineWorker {
    /// The ledger's record of a failed attempt of this reader.
    func failedAttempt(
        uid: [UInt8], row: Int, failure: CycleFailure, durations: AttemptRecord.PhaseDurations = .init(),
        exchanges: Int = 0, airtime: Int? = nil, started: Date
    ) -> AttemptRecord {
        AttemptRecord(
            uid: uid, row: row, reader: readerName, outcome: .failed, failureClass: failure.failureClass.rawValue,
            failureDetail: failure.detail, phase: failure.phase.rawValue, page: failure.page, durations: durations,
            exchanges: exchanges, modelledAirtimeMicroseconds: airtime, startedAt: started, finishedAt: Date())
    }

    /// After a tag the job refused or failed: pauses the reader after `maxConsecutiveFailures` tags in a row
    /// failed with one class, and stops when no usable tag has arrived for the idle time.
    func afterRefusal() -> WorkerStop? {
        guard !usable.lastWasUsable else { return nil }
        if settings.maxConsecutiveFailures > 0, let run = usable.failureRun,
            run.count >= settings.maxConsecutiveFailures
        {
            events(
                .failurePause(
                    reader: readerName, failureClass: run.failureClass, count: run.count,
                    cause: pauseCause(run.failureClass)))
            return .failurePause(run.failureClass)
        }
        if let idle = settings.idleLimit, clock.now - usable.lastUsable > idle {
            return .idle
        }
        return nil
    }

    /// The likely cause of a pause on `failureClass`; for wrong chips, the chip seen and the chips the job takes.
    private func pauseCause(_ failureClass: FailureClass) -> String {
        guard failureClass == .wrongChip else { return failureClass.likelyCause }
        let wanted = job.acceptedChips.map(\.displayName).sorted().joined(separator: " or ")
        let seen = usable.lastChip?.displayName ?? "another chip"
        return
            "the tags are \(seen) and this job takes \(wanted.isEmpty ? "another chip" : wanted): load the right reel"
    }

    /// Whether anything is left for this reader to do: `nil` while a pending row remains or an open claim is
    /// this station's own (its tag may come back here); `.jobComplete` when no row is open; `.nothingToClaim`
    /// when every open row is held by another station's claim, unless `waitsForWork` (then told once, `nil`).
    ///
    /// - Throws: `OthersFinishing` while another station's claim is younger than the settings'
    ///   `claimInProgressSeconds` (its tag is probably being written: the job may be complete in a moment).
    func leftToClaim() async throws -> WorkerStop? {
        let left = try await ledger.remainingWork(job: job.name)
        let station = OpenClaim.station(ofReader: readerName)
        if left.hasPending || left.claims.contains(where: { $0.station == station }) {
            usable.waitingForWork(false)
            return nil
        }
        if left.claims.isEmpty { return .jobComplete }
        let now = Date()
        if left.claims.contains(where: { now.timeIntervalSince($0.claimedAt) < settings.claimInProgressSeconds }) {
            throw OthersFinishing()
        }
        guard settings.waitsForWork else { return .nothingToClaim }
        if usable.waitingForWork(true) { events(.waitingForWork(reader: readerName)) }
        return nil
    }

    /// Waits a moment (or until a stop is requested) before asking the ledger again whether the other stations'
    /// tags in progress are done.
    func pauseForOthers() async {
        _ = try? await stop.interruptible { try await Task.sleep(for: .milliseconds(500)) }
    }
}

/// Every open row is another station's, and one of those claims is recent: its tag is probably being written.
struct OthersFinishing: Error {}
