import Foundation

/// Exactly-once claiming and resolution of rows (docs/ledger.md, "Exactly-once rules").
extension SQLLedger {
    /// Gives `uid` a row of `job`: the row it already holds, or else the lowest pending row.
    ///
    /// Runs in one `BEGIN IMMEDIATE` transaction, so concurrent connections and processes never hand out
    /// the same row. A UID that holds an unresolved claim gets that same row back with `resumed == true`
    /// (after a tear or a crash the tag may hold a partial or complete write: verify before writing).
    ///
    /// With `.deferred` durability the claim is committed but not synced when the call returns: the
    /// caller starts `syncInBackground()` and sends no WRITE to the tag before its ticket finishes (the
    /// line does so, to run the sync under the tag's identify and detection exchanges).
    /// - Returns: the claimed row, or `nil` when the job has no pending row left.
    /// - Throws: `.unknownJob`; `.alreadyProvisioned` when `uid` is recorded as a done tag in any job
    ///   (the message names the job and row).
    public func claim(
        job: String, reader: String, uid: [UInt8], durability: Durability
    ) async throws(LedgerError) -> ClaimedRow? {
        let uidText = LedgerFormat.uid(uid)
        return try await write(durability: durability) { () throws(LedgerError) -> ClaimedRow? in
            // One probe of `records_live_uid` finds both a done row in any job and this job's claim.
            let live = try connection.query(Ledger.liveRowsOfUID, [.text(uidText)]) {
                (job: $0.text("job"), row: $0.int("row"), state: $0.text("state"))
            }
            // A done UID is refused, naming its earliest done row (`provisionedRow`; a rare path).
            if live.contains(where: { $0.state == RecordState.done.rawValue }),
                let done = try provisionedRow(uidText)
            {
                try requireJob(job)
                throw LedgerError(.alreadyProvisioned, "UID \(uidText) is already provisioned as \(done)")
            }
            if let held = live.first(where: { $0.job == job })?.row {
                // claimed_at stays the first claim's time: it is the row's late-bound timestamp, so
                // re-rendering after a crash yields the very bytes that may already be on the tag.
                try connection.run(Ledger.resumeClaim, [.text(reader), .text(job), .int(held)])
                guard
                    let resumed = try connection.queryFirst(
                        Ledger.claimOfRow, [.text(job), .int(held)],
                        { s throws(LedgerError) in try claimedRow(s, job: job, uid: uid, resumed: true) })
                else { throw LedgerError(.unknownRow, "job \(job) has no row \(held)") }
                return resumed
            }
            // The lowest pending row with the columns the line needs, then its claim. The claim time is
            // handed out as it is stored (milliseconds), the very value a resumed claim reads back.
            let now = LedgerFormat.time(Date())
            let claimedAt = try LedgerFormat.date(now)
            guard
                let next = try connection.queryFirst(
                    Ledger.nextPending + connection.nextRowLock, [.text(job)],
                    { s throws(LedgerError) in
                        try claimedRow(s, job: job, uid: uid, resumed: false, claimedAt: claimedAt)
                    })
            else {
                try requireJob(job)
                return nil
            }
            let changed = try connection.run(
                Ledger.claimPending, [.text(uidText), .text(reader), .text(now), .text(job), .int(next.row)])
            guard changed == 1 else {
                throw LedgerError(.invalidState, "row \(next.row) of job \(job) changed while it was being claimed")
            }
            return next
        }
    }

    /// The job and row `uid` was provisioned as, in any job, or `nil`.
    public func isProvisioned(uid: [UInt8]) async throws(LedgerError) -> RowReference? {
        let uidText = LedgerFormat.uid(uid)
        return try await perform { () throws(LedgerError) in try provisionedRow(uidText) }
    }

    /// Commits a verified tag: the row becomes `done` with the tag recorded on it, and the attempt is
    /// recorded, in one transaction (both or neither).
    ///
    /// The attempt is stored with this `row`, this `uid` and outcome `done`, whatever it carried.
    /// With `.deferred` durability (the line's choice) the commit is not synced on its own: the next
    /// claim's synced commit — which must precede any write to the next tag — or `sync()` covers it, so a
    /// tag costs one sync of the WAL instead of two. A power loss before that leaves the row `claimed`
    /// by this UID, which `claim` resumes when the tag is presented again (docs/ledger.md, "Durability").
    ///
    /// - Returns: whether the job still has open rows (`pending` or `claimed`), read in the same
    ///   transaction, so the line needs no separate query before its next tag.
    /// - Throws: `.invalidState` unless the row is `claimed` by `uid` (a claimed row's UID is unique in its
    ///   job: `records_live_uid`); `.alreadyProvisioned` when `uid` finished the row meanwhile in another process.
    @discardableResult
    public func markDone(
        job: String, row: Int, uid: [UInt8], tag: TagRecord, attempt: AttemptRecord,
        durability: Durability
    ) async throws(LedgerError) -> Bool {
        let uidText = LedgerFormat.uid(uid)
        return try await write(durability: durability) { () throws(LedgerError) -> Bool in
            try requireClaim(job: job, row: row, uid: uidText)
            let now = LedgerFormat.time(Date())
            // The tag is recorded on its row (the `tags` view reads it there): one row page, no more.
            try connection.run(
                """
                UPDATE records SET state = 'done', finished_at = ?, attempts = attempts + 1, chip = ?, bytes_sha256 = ?,
                                   byte_count = ?, locked = ?, signature_status = ?, written_at = ?, recorded_at = ?,
                                   key_id = ?, key_fingerprint = ?, family = ?
                WHERE job = ? AND row = ?
                """,
                [
                    .text(now), .text(tag.chip), .text(LedgerFormat.digest(tag.bytesSHA256)), .int(tag.byteCount),
                    .bool(tag.locked), .string(tag.signatureStatus), .text(LedgerFormat.time(tag.writtenAt)),
                    .text(now),
                    .string(tag.keyID), .string(tag.keyFingerprint), .text(tag.family), .text(job), .int(row),
                ])
            var attempt = attempt
            attempt.row = row
            attempt.uid = uid
            attempt.outcome = .done
            try insertAttempt(job: job, attempt)
            if let counter = tag.sunCounter {
                _ = try recordSUNCounter(job: job, uid: uidText, counter: counter, at: now)
            }
            var event = OutboxFacts(.done, job: job, row: row, at: now)
            event.uid = uidText
            (event.chip, event.family, event.reader) = (tag.chip, tag.family, attempt.reader)
            event.station = OpenClaim.station(ofReader: attempt.reader)
            (event.detail, event.timings) = (attempt.failureDetail, attempt)
            (event.keyID, event.keyFingerprint) = (tag.keyID, tag.keyFingerprint)
            try insertOutboxEvent(event)
            return try openRows(job: job)
        }
    }

    /// Records an attempt without changing any claim (a `tagLost` keeps the row attached to its UID).
    ///
    /// When `attempt.row` is set, the row's attempt count is incremented in the same transaction.
    public func recordAttempt(job: String, _ attempt: AttemptRecord) async throws(LedgerError) {
        try await write { () throws(LedgerError) in
            try requireJob(job)
            try insertAttempt(job: job, attempt)
            if let row = attempt.row {
                try connection.run(
                    "UPDATE records SET attempts = attempts + 1 WHERE job = ? AND row = ?", [.text(job), .int(row)])
            }
            if attempt.outcome == .failed, attempt.failureClass == Ledger.quarantineClass {
                var event = OutboxFacts(.quarantined, job: job, row: attempt.row, at: LedgerFormat.time(Date()))
                (event.uid, event.reader) = (LedgerFormat.uid(attempt.uid), attempt.reader)
                event.station = OpenClaim.station(ofReader: attempt.reader)
                (event.failureClass, event.detail) = (attempt.failureClass, attempt.failureDetail)
                event.timings = attempt
                try insertOutboxEvent(event)
            }
        }
    }

    /// Gives up on a claimed row: `failed`, or `burned` when the tag is discarded (`onFailure`).
    ///
    /// The UID stays recorded on the row; the row is not reissued unless released. Recorded as an event.
    /// - Throws: `.unknownRow`, or `.invalidState` unless the row is `claimed`.
    public func markFailed(job: String, row: Int, burn: Bool, detail: String?) async throws(LedgerError) {
        let state: RecordState = burn ? .burned : .failed
        try await write { () throws(LedgerError) in
            _ = try requireState(job: job, row: row, in: [.claimed])
            let now = LedgerFormat.time(Date())
            try connection.run(
                "UPDATE records SET state = ?, finished_at = ? WHERE job = ? AND row = ?",
                [.text(state.rawValue), .text(now), .text(job), .int(row)])
            try insertEvent(job: job, row: row, kind: burn ? "burned" : "failed", actor: nil, detail: detail)
            var event = try outboxRowFacts(job: job, row: row, outcome: burn ? .burned : .failed, at: now)
            event.timings = try lastFailedAttempt(job: job, row: row)
            (event.failureClass, event.detail) = (event.timings?.failureClass, detail)
            try insertOutboxEvent(event)
        }
    }

    /// Returns a claimed row to `pending` so the next tag gets it (`onFailure` = reuse).
    ///
    /// Recorded as an event.
    ///
    /// - Throws: `.unknownRow`, or `.invalidState` unless the row is `claimed`.
    public func returnToPending(job: String, row: Int, detail: String?) async throws(LedgerError) {
        try await write { () throws(LedgerError) in
            let uid = try requireState(job: job, row: row, in: [.claimed])
            try reopen(job: job, row: row)
            try insertEvent(
                job: job, row: row, kind: "returnToPending", actor: nil,
                detail: ["uid \(uid ?? "-")", detail].compactMap { $0 }.joined(separator: "; "))
        }
    }

    /// The operator releases a row (`claimed`, `failed` or `burned`) back to `pending`.
    ///
    /// Recorded as a `release` event naming `by` and the UID that held it. A `done` row can never be
    /// released.
    /// - Throws: `.unknownRow`, or `.invalidState` for a `pending` or `done` row.
    public func release(job: String, row: Int, by: String, note: String?) async throws(LedgerError) {
        try await write { () throws(LedgerError) in
            if try rowState(job: job, row: row) == .done {
                throw LedgerError(
                    .invalidState,
                    "row \(row) of job \(job) is done, and a done row stays final; if its tag was destroyed, "
                        + "issue the row again: provision reissue MANIFEST --row \(row) --reason TEXT")
            }
            let uid = try requireState(job: job, row: row, in: [.claimed, .failed, .burned])
            var event = try outboxRowFacts(job: job, row: row, outcome: .released, at: LedgerFormat.time(Date()))
            (event.actor, event.detail) = (by, note)
            try insertOutboxEvent(event)
            try reopen(job: job, row: row)
            try insertEvent(
                job: job, row: row, kind: "release", actor: by,
                detail: ["uid \(uid ?? "-")", note].compactMap { $0 }.joined(separator: "; "))
        }
    }

    // MARK: - Inside a transaction

    /// Throws `.unknownJob` unless `job` is registered (an existence probe: no columns decoded).
    private func requireJob(_ job: String) throws(LedgerError) {
        guard try connection.queryFirst("SELECT 1 FROM jobs WHERE name = ?", [.text(job)], { $0.int(0) }) != nil else {
            throw LedgerError(.unknownJob, "job \(job) is not registered in \(location)")
        }
    }

    private func reopen(job: String, row: Int) throws(LedgerError) {
        try connection.run(
            """
            UPDATE records SET state = 'pending', uid = NULL, claimed_by = NULL, claimed_at = NULL, finished_at = NULL
            WHERE job = ? AND row = ?
            """, [.text(job), .int(row)])
    }

    /// The state of a row, or `nil` for no such row.
    func rowState(job: String, row: Int) throws(LedgerError) -> RecordState? {
        try connection.queryFirst("SELECT state FROM records WHERE job = ? AND row = ?", [.text(job), .int(row)]) {
            RecordState(rawValue: $0.text("state"))
        } ?? nil
    }

    /// Checks the row is in one of `states` and returns its UID.
    private func requireState(job: String, row: Int, in states: Set<RecordState>) throws(LedgerError) -> String? {
        guard
            let (stateText, uid) = try connection.queryFirst(
                "SELECT state, uid FROM records WHERE job = ? AND row = ?" + connection.rowLock,
                [.text(job), .int(row)],
                { ($0.text("state"), $0.optionalText("uid")) })
        else { throw LedgerError(.unknownRow, "job \(job) has no row \(row)") }
        guard let state = RecordState(rawValue: stateText), states.contains(state) else {
            throw LedgerError(
                .invalidState,
                "row \(row) of job \(job) is \(stateText), not "
                    + states.map(\.rawValue).sorted().joined(separator: " or ")
            )
        }
        return uid
    }

    /// Checks the row is `claimed` by `uid`. A row this very UID finished meanwhile (another process on the same
    /// ledger saw the same UID) is `.alreadyProvisioned`, so the caller can treat the tag as a duplicate.
    private func requireClaim(job: String, row: Int, uid: String) throws(LedgerError) {
        let holder: String?
        do throws(LedgerError) {
            holder = try requireState(job: job, row: row, in: [.claimed])
        } catch {
            // Only on the refusal path: a row this UID finished meanwhile, in another process.
            guard error.code == .invalidState,
                let (state, holder) = try connection.queryFirst(
                    "SELECT state, uid FROM records WHERE job = ? AND row = ?", [.text(job), .int(row)],
                    { ($0.text("state"), $0.optionalText("uid")) }),
                state == RecordState.done.rawValue, holder == uid
            else { throw error }
            throw LedgerError(.alreadyProvisioned, "UID \(uid) finished row \(row) of job \(job) in another process")
        }
        guard holder == uid else {
            throw LedgerError(.invalidState, "row \(row) of job \(job) is claimed by \(holder ?? "-"), not \(uid)")
        }
    }

    func provisionedRow(_ uid: String) throws(LedgerError) -> RowReference? {
        try connection.queryFirst(Ledger.doneRowOfUID, [.text(uid)]) {
            RowReference(job: $0.text("job"), row: $0.int("row"))
        }
    }

    /// A claim's row from a statement returning `claimColumns`; `claimedAt` for a row not claimed yet.
    func claimedRow(
        _ s: some SQLRow, job: String, uid: [UInt8], resumed: Bool, claimedAt: Date? = nil
    ) throws(LedgerError) -> ClaimedRow {
        let stored: Date
        if let given = claimedAt { stored = given } else { stored = try LedgerFormat.date(s.text("claimed_at")) }
        return ClaimedRow(
            job: job, row: s.int("row"), fields: try LedgerFormat.fields(s.text("fields_json")),
            messageSHA256: try LedgerFormat.bytes(s.text("message_sha256")), messageLength: s.int("message_length"),
            uid: uid, attempts: s.int("attempts"), resumed: resumed, claimedAt: stored,
            reissueOf: s.optionalInt("reissue_of"),
            originalMessage: try s.optionalText("original_message").map { text throws(LedgerError) in
                try LedgerFormat.bytes(text)
            })
    }

    private func insertAttempt(job: String, _ attempt: AttemptRecord) throws(LedgerError) {
        let d = attempt.durations
        try connection.run(
            """
            INSERT INTO attempts(job, uid, row, reader, outcome, failure_class, failure_detail, phase, page,
                                 detect_us, identify_us, write_us, verify_us, lock_us, ledger_us, removal_us,
                                 exchanges, airtime_us, started_at, finished_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(job), .text(LedgerFormat.uid(attempt.uid)), .int(attempt.row), .text(attempt.reader),
                .text(attempt.outcome.rawValue), .string(attempt.failureClass), .string(attempt.failureDetail),
                .string(attempt.phase), .int(attempt.page), .int(d.detect), .int(d.identify), .int(d.write),
                .int(d.verify), .int(d.lock), .int(d.ledger), .int(d.removal), .int(attempt.exchanges),
                .int(attempt.modelledAirtimeMicroseconds), .text(LedgerFormat.time(attempt.startedAt)),
                .text(LedgerFormat.time(attempt.finishedAt)),
            ])
    }
}

/// The statements and row decoders both stores share.
extension Ledger {
    /// The live rows (claimed or done, any job) of a UID: an index search of `records_live_uid` (the
    /// partial index's condition spelled word for word), no sort.
    static let liveRowsOfUID = "SELECT job, row, state FROM records WHERE uid = ? AND \(isLive)"

    /// The job's lowest pending row and its claim columns: a search of `records_open`, no sort.
    static let nextPending =
        "SELECT \(claimColumns) FROM records WHERE job = ? AND \(isOpen) AND state = 'pending' ORDER BY row LIMIT 1"

    /// Ties a pending row to a UID. (Plain statements: `UPDATE … RETURNING` needs SQLite 3.35, newer than
    /// some line stations' distributions ship.)
    static let claimPending = """
        UPDATE records SET state = 'claimed', uid = ?, claimed_by = ?, claimed_at = ?
        WHERE job = ? AND row = ? AND state = 'pending'
        """

    /// Gives a claimed row back to its UID under a new reader.
    static let resumeClaim = "UPDATE records SET claimed_by = ? WHERE job = ? AND row = ?"

    /// A row's claim columns.
    static let claimOfRow = "SELECT \(claimColumns) FROM records WHERE job = ? AND row = ?"

    /// What a claim reads from its row (`claimedRow(_:job:uid:resumed:claimedAt:)` maps them).
    static let claimColumns =
        "row, fields_json, message_sha256, message_length, attempts, claimed_at, reissue_of, original_message"

    /// The earliest done row of a UID in any job: an index search of `records_live_uid`.
    static let doneRowOfUID =
        "SELECT job, row FROM records WHERE uid = ? AND \(isLive) AND state = 'done' ORDER BY finished_at LIMIT 1"
}
