/// Read-only queries for progress, reports and audits.
extension SQLLedger {
    /// Rows of `job` by state.
    ///
    /// Index-only counts: all rows by the primary key, open rows by `records_open`, failed and burned
    /// ones by `records_closed`; `done` is the rest (every row is in exactly one state).
    public func counts(job: String) async throws(LedgerError) -> StateCounts {
        try await perform { () throws(LedgerError) -> StateCounts in
            guard
                let (total, pending, claimed, failed, burned) = try connection.queryFirst(
                    """
                    SELECT (SELECT count(*) FROM records WHERE job = ?1) AS total,
                      (SELECT count(*) FROM records WHERE job = ?1 AND \(Ledger.isOpen) AND state = 'pending')
                        AS pending,
                      (SELECT count(*) FROM records WHERE job = ?1 AND \(Ledger.isOpen) AND state = 'claimed')
                        AS claimed,
                      (SELECT count(*) FROM records WHERE job = ?1 AND \(Ledger.isClosed) AND state = 'failed')
                        AS failed,
                      (SELECT count(*) FROM records WHERE job = ?1 AND \(Ledger.isClosed) AND state = 'burned')
                        AS burned
                    """, [.text(job)],
                    { ($0.int("total"), $0.int("pending"), $0.int("claimed"), $0.int("failed"), $0.int("burned")) })
            else { return StateCounts() }
            var counts = StateCounts()
            counts.pending = pending
            counts.claimed = claimed
            counts.failed = failed
            counts.burned = burned
            counts.done = total - pending - claimed - failed - burned
            return counts
        }
    }

    /// Whether `job` has a `pending` or `claimed` row (an EXISTS probe of `records_open`).
    func openRows(job: String) throws(LedgerError) -> Bool {
        try connection.queryFirst(
            "SELECT EXISTS(SELECT 1 FROM records WHERE job = ? AND \(Ledger.isOpen)) AS has_open", [.text(job)]
        ) {
            $0.int("has_open")
        } == 1
    }

    /// One row of `job`, or `nil`.
    public func record(job: String, row: Int) async throws(LedgerError) -> RecordInfo? {
        try await perform { () throws(LedgerError) in try recordNow(job: job, row: row) }
    }

    /// `record(job:row:)` on the connection, inside the caller's `perform`.
    func recordNow(job: String, row: Int) throws(LedgerError) -> RecordInfo? {
        try connection.queryFirst(
            "SELECT \(Ledger.recordColumns) FROM records WHERE job = ? AND row = ?", [.text(job), .int(row)]
        ) { s throws(LedgerError) in try Ledger.recordInfo(s) }
    }

    /// Every row of `job` in row order.
    public func records(job: String) async throws(LedgerError) -> [RecordInfo] {
        try await perform { () throws(LedgerError) in
            try connection.query(
                "SELECT \(Ledger.recordColumns) FROM records WHERE job = ? ORDER BY row", [.text(job)]
            ) { s throws(LedgerError) in try Ledger.recordInfo(s) }
        }
    }

    /// Every attempt of `job`, in the order recorded.
    public func attempts(job: String) async throws(LedgerError) -> [AttemptRecord] {
        try await perform { () throws(LedgerError) in
            try connection.query(
                "SELECT \(Ledger.attemptColumns) FROM attempts WHERE job = ? ORDER BY id", [.text(job)]
            ) { s throws(LedgerError) in try Ledger.attempt(s) }
        }
    }

    /// The attempts of `job` that carry a failure class, in the order recorded.
    public func failures(job: String) async throws(LedgerError) -> [AttemptRecord] {
        try await perform { () throws(LedgerError) in
            try connection.query(
                "SELECT \(Ledger.attemptColumns) FROM attempts WHERE job = ? AND failure_class IS NOT NULL ORDER BY id",
                [.text(job)]
            ) { s throws(LedgerError) in try Ledger.attempt(s) }
        }
    }

    /// The tags of `job` in row order.
    public func tags(job: String) async throws(LedgerError) -> [ProvisionedTag] {
        try await perform { () throws(LedgerError) in
            try connection.query(
                "SELECT \(Ledger.tagColumns) FROM tags WHERE job = ? ORDER BY row", [.text(job)]
            ) { s throws(LedgerError) in try Ledger.provisionedTag(s) }
        }
    }

    /// Every tag recorded with `uid`, in any job (at most one per job), found through `records_live_uid`.
    public func tags(uid: [UInt8]) async throws(LedgerError) -> [ProvisionedTag] {
        try await perform { () throws(LedgerError) in try tagsNow(uid: uid) }
    }

    /// `tags(uid:)` on the connection, inside the caller's `perform`.
    func tagsNow(uid: [UInt8]) throws(LedgerError) -> [ProvisionedTag] {
        try connection.query(
            """
            SELECT \(Ledger.tagColumns) FROM tags WHERE (job, row) IN (
                SELECT job, row FROM records WHERE uid = ? AND \(Ledger.isLive) AND state = 'done')
            ORDER BY recorded_at
            """, [.text(LedgerFormat.uid(uid))]
        ) { s throws(LedgerError) in try Ledger.provisionedTag(s) }
    }

    /// The audit trail of `job` (or of the whole ledger when `nil`), oldest first.
    public func events(job: String?) async throws(LedgerError) -> [LedgerEvent] {
        try await perform { () throws(LedgerError) in
            try connection.query(
                "SELECT id, job, row, kind, actor, detail, at FROM events WHERE ?1 IS NULL OR job = ?1 ORDER BY id",
                [.string(job)]
            ) { s throws(LedgerError) in
                LedgerEvent(
                    id: s.int("id"), job: s.optionalText("job"), row: s.optionalInt("row"), kind: s.text("kind"),
                    actor: s.optionalText("actor"), detail: s.optionalText("detail"),
                    at: try LedgerFormat.date(s.text("at")))
            }
        }
    }

    // MARK: - Row mapping

}

/// The statements and row decoders both stores share.
extension Ledger {
    /// The partial-index conditions, spelled as the indexes declare them: SQLite uses a partial index
    /// only for a query whose WHERE clause contains its condition as written (docs/ledger.md, "Indexes and
    /// the write path").
    static let isOpen = "state IN ('pending', 'claimed')"

    static let isLive = "state IN ('claimed', 'done')"

    static let isClosed = "state IN ('failed', 'burned')"

    static let recordColumns = """
        job, row, fields_json, message_sha256, message_length, state, uid, claimed_by, attempts, claimed_at, finished_at
        """

    static func recordInfo(_ s: some SQLRow) throws(LedgerError) -> RecordInfo {
        guard let state = RecordState(rawValue: s.text("state")) else {
            throw LedgerError(.invalidData, "unknown record state \(s.text("state"))")
        }
        return RecordInfo(
            job: s.text("job"), row: s.int("row"), fields: try LedgerFormat.fields(s.text("fields_json")),
            messageSHA256: try LedgerFormat.bytes(s.text("message_sha256")), messageLength: s.int("message_length"),
            state: state,
            uid: try s.optionalText("uid").map { text throws(LedgerError) in try LedgerFormat.bytes(text) },
            claimedBy: s.optionalText("claimed_by"), attempts: s.int("attempts"),
            claimedAt: try LedgerFormat.date(s.optionalText("claimed_at")),
            finishedAt: try LedgerFormat.date(s.optionalText("finished_at")))
    }

    static let attemptColumns = """
        uid, row, reader, outcome, failure_class, failure_detail, phase, page, detect_us, identify_us, write_us,
        verify_us, lock_us, ledger_us, removal_us, exchanges, airtime_us, started_at, finished_at
        """

    static func attempt(_ s: some SQLRow) throws(LedgerError) -> AttemptRecord {
        AttemptRecord(
            uid: try LedgerFormat.bytes(s.text("uid")), row: s.optionalInt("row"), reader: s.text("reader"),
            outcome: AttemptRecord.Outcome(rawValue: s.text("outcome")), failureClass: s.optionalText("failure_class"),
            failureDetail: s.optionalText("failure_detail"), phase: s.optionalText("phase"),
            page: s.optionalInt("page"),
            durations: AttemptRecord.PhaseDurations(
                detect: s.optionalInt("detect_us"), identify: s.optionalInt("identify_us"),
                write: s.optionalInt("write_us"), verify: s.optionalInt("verify_us"), lock: s.optionalInt("lock_us"),
                ledger: s.optionalInt("ledger_us"), removal: s.optionalInt("removal_us")),
            exchanges: s.int("exchanges"), modelledAirtimeMicroseconds: s.optionalInt("airtime_us"),
            startedAt: try LedgerFormat.date(s.text("started_at")),
            finishedAt: try LedgerFormat.date(s.text("finished_at")))
    }

    static let tagColumns = """
        job, row, uid, chip, bytes_sha256, byte_count, locked, signature_status, written_at, recorded_at,
        key_id, key_fingerprint, family
        """

    static func provisionedTag(_ s: some SQLRow) throws(LedgerError) -> ProvisionedTag {
        ProvisionedTag(
            job: s.text("job"), row: s.int("row"),
            tag: TagRecord(
                uid: try LedgerFormat.bytes(s.text("uid")), chip: s.text("chip"),
                bytesSHA256: try LedgerFormat.bytes(s.text("bytes_sha256")), byteCount: s.int("byte_count"),
                locked: s.int("locked") != 0, signatureStatus: s.optionalText("signature_status"),
                writtenAt: try LedgerFormat.date(s.text("written_at")), keyID: s.optionalText("key_id"),
                keyFingerprint: s.optionalText("key_fingerprint"), family: s.optionalText("family") ?? "type2"),
            recordedAt: try LedgerFormat.date(s.text("recorded_at")))
    }
}
