import Foundation
import Ledger
import NDEF
import NFCTags
import Support

extension LineWorker {
    /// Pauses this reader while the ledger server cannot be reached (a restart, the network), reconnecting with
    /// the backoff of `LedgerOutage`; nothing is claimed or written meanwhile (docs/stations.md, "Failures").
    ///
    /// - Throws: `lost` when the operator asks to stop during the outage; `.leaseLost` when the outage
    ///   outlasts the station's lease; cancellation.
    func rideOut(_ lost: LedgerError) async throws {
        outageNotice(.lost(detail: lost.message))
        // Only the operator gives an outage up: a reader ended by the job complete still reconnects to sync.
        let after = try await LedgerOutage().rideOut(
            lost, stop: stop.operatorRequest, check: checkLease, reconnect: reconnect)
        outageNotice(.back(after: after))
    }

    /// Runs `step` (safe to repeat: idempotent, or one transaction), riding out an outage as between tags and
    /// running it again once the server answers; the job complete (the run's stop) does not give it up.
    func ridingOutOutages<T>(_ step: () async throws -> T) async throws -> T {
        try await LedgerOutage().retrying(
            stop: stop.operatorRequest, check: checkLease, reconnect: reconnect, notify: outageNotice, step)
    }

    /// The station's lease, checked before every reconnection try: an outage longer than it stops the reader.
    private func checkLease() throws {
        try settings.lease?.check()
    }

    /// One reconnection try of this reader's ledger connection.
    private func reconnect() async throws(LedgerError) {
        try await ledger.reconnect()
    }

    /// The operator's line events for an outage.
    private func outageNotice(_ notice: LedgerOutageNotice) {
        switch notice {
        case .lost(let detail): events(.ledgerLost(reader: readerName, detail: detail))
        case .back(let after): events(.ledgerBack(reader: readerName, after: after))
        }
    }

    /// The tag in the field when the ledger went away had in fact been committed done (the answer to its
    /// commit was lost): it passes, as it would have.
    func finishedBeforeOutage(uid: [UInt8], row: Int) async throws {
        events(.done(reader: readerName, uid: Hex.compact(uid), row: row, resumed: true))
        var done = RowOutcome(job: job.name, row: row, uid: uid, reader: readerName, resolution: .done)
        done.resumed = true
        report(done)
        usable.usable()
        await signal(.pass)
        try await remove(Hex.compact(uid))
    }

    /// A tag whose UID is already provisioned (`previous`, when the ledger names the row): the skip is recorded,
    /// the operator gets the fail signal and the tag is released. Tags of another job count toward a pause.
    func refuseDuplicate(
        uid: [UInt8], previous: RowReference?, started: Date, durations: AttemptRecord.PhaseDurations
    ) async throws {
        if let previous { try await recordSkip(uid: uid, previous: previous, started: started, durations: durations) }
        // A tag this job finished, presented again (after a resume), is no operator error: it counts toward no pause.
        if let previous, previous.job != job.name { usable.failed(.duplicateUID) } else { usable.refused() }
        await signal(.fail)
        try await remove(Hex.compact(uid))
    }

    private func recordSkip(
        uid: [UInt8], previous: RowReference, started: Date, durations: AttemptRecord.PhaseDurations
    ) async throws {
        let detail = "already provisioned as row \(previous.row) of job \(previous.job)"
        events(.duplicate(reader: readerName, uid: Hex.compact(uid), job: previous.job, row: previous.row))
        let attempt = AttemptRecord(
            uid: uid, row: nil, reader: readerName, outcome: .skipped,
            failureClass: FailureClass.duplicateUID.rawValue, failureDetail: detail, phase: Phase.identify.rawValue,
            durations: durations, startedAt: started, finishedAt: Date())
        try await ledger.recordAttempt(job: job.name, attempt)
        var skipped = RowOutcome(job: job.name, row: nil, uid: uid, reader: readerName, resolution: .duplicate)
        skipped.failure = CycleFailure(.duplicateUID, phase: .identify, detail)
        skipped.attempt = attempt
        skipped.previous = previous
        report(skipped)
    }
}
