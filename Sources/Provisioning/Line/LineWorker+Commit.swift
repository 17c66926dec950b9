import Crypto
import Foundation
import Ledger
import NFCTags
import Support

extension LineWorker {
    /// The commit step of a tag that passed: the row, the tag and the attempt in one transaction, with deferred
    /// durability — the next claim's sync (which precedes any write to the next tag) or the idle line's makes it
    /// durable, one sync of the WAL a tag (docs/ledger.md, "Durability"); the observer hears of it then.
    ///
    /// - Returns: whether open rows remain and the tag's ledger time (µs), or `nil` when another process on this
    ///   ledger finished the row with this very UID meanwhile (the tag is refused as a duplicate and released).
    func commitDone(_ tag: ClaimedTag, _ last: LastTry, message: [UInt8]) async throws
        -> (openRows: Bool, ledgerMicroseconds: Int)?
    {
        let ledgerStart = clock.now
        let outcome = last.outcome
        var record = TagRecord(
            uid: tag.uid, chip: outcome.chip?.id ?? outcome.family ?? "unknown", bytesSHA256: Digest.sha256(message),
            byteCount: message.count, locked: outcome.locked, signatureStatus: outcome.signature?.rawValue,
            writtenAt: Date(), keyID: job.keyRecord?.id, keyFingerprint: job.keyRecord?.fingerprint,
            family: outcome.chip?.family ?? outcome.family ?? "type2")
        record.sunCounter = outcome.sunCounter.map { Int($0) }
        let attempt = AttemptRecord(
            uid: tag.uid, row: tag.claim.row, reader: readerName, outcome: .done,
            failureDetail: outcome.identityAnomalies.map { "identity check (record): " + $0 },
            phase: Phase.ledger.rawValue,
            durations: tag.durations, exchanges: outcome.exchanges, modelledAirtimeMicroseconds: last.airtime,
            startedAt: last.started, finishedAt: Date())
        guard let openRows = try await markDone(tag, record: record, attempt: attempt) else {
            // Another process on this ledger finished the row with this very UID: this tag is a duplicate.
            try await refuseDuplicate(
                uid: tag.uid, previous: RowReference(job: job.name, row: tag.claim.row), started: tag.started,
                durations: tag.durations)
            return nil
        }
        // The ledger phase: the claim, the wait for its sync, and this commit.
        let ledgerMicros = (clock.now - ledgerStart + tag.ledgerTime).wholeMicroseconds
        events(.done(reader: readerName, uid: tag.uidText, row: tag.claim.row, resumed: tag.claim.resumed))
        var done = rowOutcome(tag, .done, last)
        done.attempt = attempt
        done.ledgerMicroseconds = ledgerMicros
        report(done)
        usable.usable()
        await signal(.pass)
        return (openRows, ledgerMicros)
    }

    /// The commit step of a tag whose last try failed (its attempt is recorded): the row's fate by `onFailure`,
    /// then the observer hears of it.
    func commitFailure(_ tag: ClaimedTag, _ last: LastTry, failure: CycleFailure) async throws {
        usable.failed(failure.failureClass, chip: last.outcome.chip)
        let resolution = try await resolve(
            claim: tag.claim, after: failure, wroteSomething: last.outcome.wroteSomething || tag.claim.resumed,
            keysChanged: last.outcome.keysChanged)
        var failed = rowOutcome(tag, resolution, last)
        failed.failure = failure
        failed.attempt = last.record
        report(failed)
    }

    /// Hands `outcome` to the observer once everything this worker has committed so far is durable.
    func report(_ outcome: RowOutcome) {
        delivery.add(outcome, after: durability())
    }

    /// The outcome of `tag`'s row as its last try left it, without the failure and the attempt.
    private func rowOutcome(_ tag: ClaimedTag, _ resolution: RowOutcome.Resolution, _ last: LastTry) -> RowOutcome {
        var outcome = RowOutcome(
            job: job.name, row: tag.claim.row, uid: tag.uid, reader: readerName, resolution: resolution)
        outcome.resumed = tag.claim.resumed
        outcome.tries = last.number
        outcome.chip = last.outcome.chip
        outcome.family = last.outcome.chip?.family ?? last.outcome.family
        outcome.keyID = job.keyRecord?.id
        outcome.keyFingerprint = job.keyRecord?.fingerprint
        return outcome
    }

    /// Commits the row done (deferred durability); `nil` when another process on this ledger finished the row
    /// with this very UID meanwhile (two readers saw one UID: this tag is a duplicate), so the line carries on.
    private func markDone(_ tag: ClaimedTag, record: TagRecord, attempt: AttemptRecord) async throws -> Bool? {
        do {
            return try await ledger.markDone(
                job: job.name, row: tag.claim.row, uid: tag.uid, tag: record, attempt: attempt, durability: .deferred)
        } catch {
            guard error.code == .alreadyProvisioned else { throw error }
            return nil
        }
    }

    /// Decides what happens to the row after the last failed try; returns what became of it.
    private func resolve(
        claim: ClaimedRow, after failure: CycleFailure, wroteSomething: Bool, keysChanged: Bool
    ) async throws -> RowOutcome.Resolution {
        switch failure.failureClass {
        case .tagLost:
            // The tag may hold a partial write: the claim stays with its UID until it comes back.
            return .held
        case _ where keysChanged && job.onFailure == .reuse:
            // The tag holds some of the row's keys (the key journal names them): only this row can finish it.
            return .held
        default:
            if !wroteSomething {
                try await ledger.returnToPending(
                    job: job.name, row: claim.row, detail: "\(failure.failureClass.rawValue): nothing written")
                return .returnedToPending
            } else if job.onFailure == .burn {
                try await ledger.markFailed(job: job.name, row: claim.row, burn: true, detail: failure.description)
                return .burned
            } else {
                try await ledger.returnToPending(job: job.name, row: claim.row, detail: failure.description)
                return .returnedToPending
            }
        }
    }
}
