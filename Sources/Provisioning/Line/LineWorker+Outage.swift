import Foundation
import Ledger
import NDEF
import NFCTags
import Support

extension LineWorker {
    /// The first pause after the ledger server went away; it doubles up to `longestReconnectPause`.
    static let firstReconnectPause = Duration.milliseconds(500)
    /// The longest pause between two reconnection tries.
    static let longestReconnectPause = Duration.seconds(10)

    /// Pauses this reader while the ledger server cannot be reached (a restart, the network), trying to
    /// reconnect with backoff; nothing is claimed or written meanwhile (docs/stations.md, "Failures").
    ///
    /// - Throws: `lost` when the operator asks to stop during the outage; `.leaseLost` when the outage
    ///   outlasts the station's lease; cancellation.
    func rideOut(_ lost: LedgerError) async throws {
        let started = clock.now
        events(.ledgerLost(reader: readerName, detail: lost.message))
        var pause = Self.firstReconnectPause
        while true {
            try await Task.sleep(for: pause)
            if stop.isRequested { throw lost }
            try settings.lease?.check()
            if try await reconnected() {
                events(.ledgerBack(reader: readerName, after: clock.now - started))
                return
            }
            pause = min(pause * 2, Self.longestReconnectPause)
        }
    }

    /// One reconnection try: `false` while the server cannot be reached.
    ///
    /// - Throws: any other ledger error (a schema changed meanwhile).
    private func reconnected() async throws(LedgerError) -> Bool {
        do {
            try await ledger.reconnect()
            return true
        } catch {
            guard error.code == .disconnected else { throw error }
            return false
        }
    }

    /// The tag in the field when the ledger went away had in fact been committed done (the answer to its
    /// commit was lost): it passes, as it would have.
    func finishedBeforeOutage(uid: [UInt8], row: Int) async throws {
        events(.done(reader: readerName, uid: Hex.compact(uid), row: row, resumed: true))
        usable.usable()
        await signal(.pass)
        try await remove(Hex.compact(uid))
    }

    /// A tag whose UID is already provisioned (`previous`, when the ledger names the row): the skip is recorded,
    /// the operator gets the fail signal and the tag is released.
    func refuseDuplicate(
        uid: [UInt8], previous: RowReference?, started: Date, durations: AttemptRecord.PhaseDurations
    ) async throws {
        if let previous { try await recordSkip(uid: uid, previous: previous, started: started, durations: durations) }
        usable.refused()
        await signal(.fail)
        try await remove(Hex.compact(uid))
    }

    private func recordSkip(
        uid: [UInt8], previous: RowReference, started: Date, durations: AttemptRecord.PhaseDurations
    ) async throws {
        let detail = "already provisioned as row \(previous.row) of job \(previous.job)"
        events(.duplicate(reader: readerName, uid: Hex.compact(uid), job: previous.job, row: previous.row))
        try await ledger.recordAttempt(
            job: job.name,
            AttemptRecord(
                uid: uid, row: nil, reader: readerName, outcome: .skipped,
                failureClass: FailureClass.duplicateUID.rawValue, failureDetail: detail, phase: Phase.identify.rawValue,
                durations: durations, startedAt: started, finishedAt: Date()))
    }
}
