import Foundation
import Support

/// A station's writes on a PostgreSQL ledger: one call each of the station functions (`PostgresStationFunctions`),
/// one round trip and one transaction, with the SQLite store's semantics (Ledger+Claims.swift and its siblings).
/// These replace the shared `SQLLedger` operations for this store; the server checks the station they name.
extension PostgresLedger {
    /// Gives `uid` a row of `job` (`SQLLedger.claim`): one call of `provision_claim`, committed synchronously, so
    /// it also makes every earlier deferred done commit durable.
    public func claim(
        job: String, reader: String, uid: [UInt8], durability: Durability
    ) async throws(LedgerError) -> ClaimedRow? {
        let uidText = LedgerFormat.uid(uid)
        let now = LedgerFormat.time(Date())
        let answer = try await perform { () throws(LedgerError) -> ClaimAnswer? in
            try connection.queryFirst(
                Self.claimCall, [.text(station), .text(job), .text(reader), .text(uidText), .text(now)]
            ) { s throws(LedgerError) -> ClaimAnswer in
                switch s.text("outcome") {
                case "claimed":
                    .row(try claimedRow(s, job: job, uid: uid, resumed: false, claimedAt: try LedgerFormat.date(now)))
                case "resumed": .row(try claimedRow(s, job: job, uid: uid, resumed: true))
                case "provisioned": .provisioned(RowReference(job: s.text("done_job"), row: s.int("row")))
                case "none": .none
                default: .unknownJob
                }
            }
        }
        switch answer {
        case .row(let row)?:
            unsynced.synced(.success(()))  // a claim that wrote flushed the WAL up to its own commit
            return row
        case .provisioned(let done)?:
            throw LedgerError(.alreadyProvisioned, "UID \(uidText) is already provisioned as \(done)")
        case .none?: return nil
        case .unknownJob?, nil: throw LedgerError(.unknownJob, "job \(job) is not registered in \(location)")
        }
    }

    /// Commits a verified tag (`SQLLedger.markDone`): one call of `provision_done`. A `.deferred` commit runs with
    /// `synchronous_commit = off` and is durable once the next claim, `sync()` or `syncInBackground()` commits.
    @discardableResult
    public func markDone(
        job: String, row: Int, uid: [UInt8], tag: TagRecord, attempt: AttemptRecord,
        durability: Durability
    ) async throws(LedgerError) -> Bool {
        var attempt = attempt
        attempt.row = row
        attempt.uid = uid
        attempt.outcome = .done
        let now = LedgerFormat.time(Date())
        let tagValues: [SQLiteValue] = [
            .text(durability == .deferred ? "off" : "on"), .text(now), .text(tag.chip),
            .text(LedgerFormat.digest(tag.bytesSHA256)), .int(tag.byteCount), .bool(tag.locked),
            .string(tag.signatureStatus), .text(LedgerFormat.time(tag.writtenAt)), .string(tag.keyID),
            .string(tag.keyFingerprint), .text(tag.family), .int(tag.sunCounter),
        ]
        let open = try await perform { () throws(LedgerError) -> Bool in
            try connection.queryFirst(
                Self.call("provision_done", 33), tagValues + attemptValues(job: job, attempt)
            ) { $0.text(0) == "t" } ?? false
        }
        if durability == .deferred { unsynced.committed() } else { unsynced.synced(.success(())) }
        return open
    }

    /// Records an attempt without changing any claim (`SQLLedger.recordAttempt`): one call of `provision_attempt`.
    public func recordAttempt(job: String, _ attempt: AttemptRecord) async throws(LedgerError) {
        try await call(job: job, Self.call("provision_attempt", 21), attemptValues(job: job, attempt))
    }

    /// Gives up on a claimed row, failed or burned (`SQLLedger.markFailed`): one call of `provision_finish_claim`.
    public func markFailed(job: String, row: Int, burn: Bool, detail: String?) async throws(LedgerError) {
        let state: RecordState = burn ? .burned : .failed
        try await finishClaim(job: job, row: row, as: state, detail: detail)
    }

    /// Returns a claimed row to `pending` (`SQLLedger.returnToPending`): one call of `provision_finish_claim`.
    public func returnToPending(job: String, row: Int, detail: String?) async throws(LedgerError) {
        try await finishClaim(job: job, row: row, as: .pending, detail: detail)
    }

    /// Stores late timings of this station's done attempts (`SQLLedger.recordLateTimings`): one call.
    public func recordLateTimings(job: String, _ timings: [Ledger.LateTiming]) async throws(LedgerError) {
        guard !timings.isEmpty else { return }
        func array(_ values: [String?]) -> SQLiteValue {
            .text("{" + values.map { $0 ?? "NULL" }.joined(separator: ",") + "}")
        }
        try await call(
            job: job, "SELECT provision_late_timings(?, ?, ?::bigint[], ?::text[], ?::bigint[], ?::bigint[])",
            [
                .text(station), .text(job), array(timings.map { String($0.row) }),
                array(timings.map { LedgerFormat.uid($0.uid) }), array(timings.map { String($0.ledgerMicroseconds) }),
                array(timings.map { $0.removalMicroseconds.map(String.init) }),
            ])
    }

    /// Records the message `uid`'s tag held before an append wrote to it (`SQLLedger.recordOriginalMessage`).
    public func recordOriginalMessage(
        job: String, row: Int, uid: [UInt8], message: [UInt8]
    ) async throws(LedgerError) -> [UInt8] {
        let uidText = LedgerFormat.uid(uid)
        let stored = try await perform { () throws(LedgerError) -> String? in
            try connection.queryFirst(
                Self.call("provision_original_message", 5),
                [.text(station), .text(job), .int(row), .text(uidText), .text(LedgerFormat.uid(message))]
            ) { $0.optionalText(0) } ?? nil
        }
        guard let stored else {
            throw LedgerError(.invalidState, "row \(row) of job \(job) is not claimed by \(uidText)")
        }
        return try LedgerFormat.bytes(stored)
    }

    /// Journals `change` as intended under this station (`SQLLedger.intendKeyChange`): one synchronous call.
    public func intendKeyChange(job: String, _ change: KeyChange) async throws(LedgerError) {
        try await call(
            job: job, Self.call("provision_intend_key_change", 10),
            [
                .text(station), .text(job), .text(LedgerFormat.uid(change.uid)), .int(change.keyNumber),
                .int(change.oldVersion), .int(change.newVersion), .text(change.keyID), .text(change.oldFingerprint),
                .text(change.newFingerprint), .text(LedgerFormat.time(Date())),
            ])
    }

    /// Resolves an unresolved key change (`SQLLedger.resolveKeyChange`): one call; the server lets the station that
    /// journalled it, or the one that now holds the tag's claim, resolve it.
    public func resolveKeyChange(
        job: String, uid: [UInt8], keyNumber: Int, as state: KeyChange.State
    ) async throws(LedgerError) {
        let uidText = LedgerFormat.uid(uid)
        let resolved = try await perform { () throws(LedgerError) -> Bool in
            try connection.queryFirst(
                Self.call("provision_resolve_key_change", 6),
                [
                    .text(station), .text(job), .text(uidText), .int(keyNumber), .text(state.rawValue),
                    .text(LedgerFormat.time(Date())),
                ]
            ) { $0.text(0) == "t" } ?? false
        }
        guard resolved else {
            throw LedgerError(.invalidState, "key \(keyNumber) of tag \(uidText) has no unresolved change")
        }
    }

    /// Statements this connection has sent, one per round trip (tests count a claim's and a done commit's).
    var roundTrips: Int { connection.roundTrips }

    // MARK: - Calls

    /// What `provision_claim` answered.
    private enum ClaimAnswer {
        case row(ClaimedRow)
        case provisioned(RowReference)
        case none
        case unknownJob
    }

    /// The claim call, its columns named as `claimedRow(_:job:uid:resumed:claimedAt:)` reads them.
    private static let claimCall = """
        SELECT o_outcome AS outcome, o_row AS row, o_fields_json AS fields_json, o_message_sha256 AS message_sha256,
               o_message_length AS message_length, o_attempts AS attempts, o_claimed_at AS claimed_at,
               o_reissue_of AS reissue_of, o_original_message AS original_message, o_done_job AS done_job
        FROM provision_claim(?, ?, ?, ?, ?)
        """

    /// `SELECT name(?, …)` with `count` parameters.
    private static func call(_ name: String, _ count: Int) -> String {
        "SELECT \(name)(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
    }

    /// Runs one function call; a job the server does not know is named with this ledger's location.
    private func call(job: String, _ sql: String, _ values: [SQLiteValue]) async throws(LedgerError) {
        do throws(LedgerError) {
            try await perform { () throws(LedgerError) in _ = try connection.query(sql, values) { _ in 0 } }
        } catch  where error.code == .unknownJob {
            throw LedgerError(.unknownJob, "job \(job) is not registered in \(location)")
        }
    }

    /// Ends this station's claim on `row` as `state` (failed, burned, pending), with its event.
    private func finishClaim(job: String, row: Int, as state: RecordState, detail: String?) async throws(LedgerError) {
        try await call(
            job: job, Self.call("provision_finish_claim", 6),
            [
                .text(station), .text(job), .int(row), .text(state.rawValue), .text(LedgerFormat.time(Date())),
                .string(detail),
            ])
    }

    /// An attempt's values in the functions' order: station, job, uid, row, reader, outcome, failure class and
    /// detail, phase, page, the seven durations, exchanges, airtime, start and end.
    private func attemptValues(job: String, _ attempt: AttemptRecord) -> [SQLiteValue] {
        let d = attempt.durations
        return [
            .text(station), .text(job), .text(LedgerFormat.uid(attempt.uid)), .int(attempt.row), .text(attempt.reader),
            .text(attempt.outcome.rawValue), .string(attempt.failureClass), .string(attempt.failureDetail),
            .string(attempt.phase), .int(attempt.page), .int(d.detect), .int(d.identify), .int(d.write),
            .int(d.verify), .int(d.lock), .int(d.ledger), .int(d.removal), .int(attempt.exchanges),
            .int(attempt.modelledAirtimeMicroseconds), .text(LedgerFormat.time(attempt.startedAt)),
            .text(LedgerFormat.time(attempt.finishedAt)),
        ]
    }
}
