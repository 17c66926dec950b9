import Foundation
import Ledger
import NFCTags
import Support

/// A tag's last try: the pipeline's outcome, the try's number, when a done attempt started, and the attempt
/// recorded for it if it failed.
struct LastTry: Sendable {
    let outcome: TagPipeline.Outcome
    let number: Int
    let started: Date
    /// The failed attempt as recorded (`nil` when the tag passed: the commit records its attempt).
    var record: AttemptRecord?

    /// The modelled airtime in whole µs, when the reader models it.
    var airtime: Int? { outcome.airtimeMicroseconds.map { Int($0.rounded()) } }
}

extension LineWorker {
    /// The bytes the claimed row's tag gets: the row rendered, after the tag's original message for `mode: append`.
    ///
    /// - Returns: `nil` when an append cannot start (unreadable or non-NDEF content): the refusal is recorded and
    ///   the tag released (`refuseAppend`).
    /// - Throws: a render failure, after the row went back to pending (pre-flight rendered every row: reaching it
    ///   means the row data changed under the run); ledger errors.
    func message(for tag: ClaimedTag) async throws -> (bytes: [UInt8], mirror: MirrorPlan?)? {
        let claim = tag.claim
        let rendered: [UInt8]
        let mirror: MirrorPlan?
        do {
            rendered = try job.render(claim.renderedRow, claim.fields, tag.uid, claim.claimedAt)
            mirror = try job.mirror?(claim.renderedRow, claim.fields, tag.uid)
        } catch {
            try await ledger.returnToPending(job: job.name, row: claim.row, detail: "render failed: \(error)")
            throw error
        }
        guard job.append else { return (rendered, mirror) }
        switch try await appendedMessage(claim: claim, detected: tag.detected, rendered: rendered) {
        case .success(let combined): return (combined, mirror)
        case .failure(let failure):
            try await refuseAppend(claim: claim, uid: tag.uid, failure: failure, started: tag.started)
            return nil
        }
    }

    /// The attempt loop: runs the pipeline on the tag until it passes, or fails with no try left. Every failed
    /// try is told and recorded here; a retryable one is tried again at once, the tag still in the field
    /// (re-activated first), with fresh durations.
    ///
    /// - Throws: the claim's sync failing at the write gate (nothing was written; the ledger cannot record, so
    ///   the line stops); ledger errors.
    func attemptLoop(_ tag: inout ClaimedTag, message: [UInt8], mirror: MirrorPlan?) async throws -> LastTry {
        let uid = tag.uid
        var attempt = 0
        var reactivate = tag.claim.resumed
        while true {
            attempt += 1
            let attemptStart = Date()
            var plan = TagPipeline.Plan(
                message: message, acceptedChips: job.acceptedChips, lock: job.lock, reactivateFirst: reactivate,
                signature: job.signature, uid: uid, identityCheck: job.identityCheck,
                protection: try job.protection.map { try ProtectionPlan($0.settings, key: $0.key, uid: uid) },
                mirror: mirror,
                writeGate: tag.gate)
            plan.formatsBlankTags = job.formatsBlankTags
            if let options = job.keyed {
                plan.personalisation = try await personalisation(
                    options, claim: tag.claim, uid: uid, retry: attempt > 1)
            }
            let outcome = try await TagPipeline.run(plan, on: reader, activation: tag.detected, families: families)
            // The claim could not be made durable: nothing was written; the ledger cannot record, stop the line.
            if let failure = outcome.gateFailure { throw failure }
            if attempt == 1 {
                // The background sync's own time (nil if no write waited for it), or the whole synced claim.
                let syncCost: Duration? = if let gate = tag.gate { gate.ticket.syncDuration } else { tag.ledgerTime }
                claimSync.record(
                    identifyMicroseconds: outcome.phaseMicroseconds[.identify],
                    syncMicroseconds: syncCost.map { Double($0.wholeMicroseconds) })
            }
            tag.ledgerTime += .microseconds(outcome.gateWaitMicroseconds)
            // The key journal's synced commits are ledger time, not the tag's lock phase.
            var phases = outcome.phaseMicroseconds
            if outcome.journalMicroseconds > 0 {
                phases[.lock] = max((phases[.lock] ?? 0) - outcome.journalMicroseconds, 0)
                tag.ledgerTime += .microseconds(outcome.journalMicroseconds)
            }
            Self.add(phases, to: &tag.durations)
            // A done tag's attempt runs from its selection on the first try, from the try's start after that.
            var last = LastTry(
                outcome: outcome, number: attempt, started: attempt == 1 ? tag.started : attemptStart, record: nil)
            guard let failure = outcome.failure else { return last }
            let retry = failure.allowsRetry(after: attempt, of: job.tries)
            events(
                .failed(reader: readerName, uid: tag.uidText, row: tag.claim.row, failure: failure, willRetry: retry))
            let record = failedAttempt(
                uid: uid, row: tag.claim.row, failure: failure, durations: tag.durations,
                exchanges: outcome.exchanges, airtime: last.airtime, started: attemptStart)
            try await ledger.recordAttempt(job: job.name, record)
            last.record = record
            guard retry else { return last }
            reactivate = true
            tag.durations = AttemptRecord.PhaseDurations()
        }
    }

    static func add(_ phases: [Phase: Double], to durations: inout AttemptRecord.PhaseDurations) {
        func plus(_ value: Int?, _ phase: Phase) -> Int? {
            guard let extra = phases[phase] else { return value }
            return (value ?? 0) + Int(extra.rounded())
        }
        durations.identify = plus(durations.identify, .identify)
        durations.write = plus(durations.write, .write)
        durations.verify = plus(durations.verify, .verify)
        durations.lock = plus(durations.lock, .lock)
    }
}
