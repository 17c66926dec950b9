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
                    SELECT (SELECT count(*) FROM records WHERE job = ?1),
                           (SELECT count(*) FROM records WHERE job = ?1 AND \(Ledger.isOpen) AND state = 'pending'),
                           (SELECT count(*) FROM records WHERE job = ?1 AND \(Ledger.isOpen) AND state = 'claimed'),
                           (SELECT count(*) FROM records WHERE job = ?1 AND \(Ledger.isClosed) AND state = 'failed'),
                           (SELECT count(*) FROM records WHERE job = ?1 AND \(Ledger.isClosed) AND state = 'burned')
                    """, [.text(job)], { ($0.int(0), $0.int(1), $0.int(2), $0.int(3), $0.int(4)) })
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

    /// Whether `job` still has a pending or claimed row: one probe of `records_open`, where
    /// `counts(job:)` counts every row.
    public func hasOpenRows(job: String) async throws(LedgerError) -> Bool {
        try await perform { () throws(LedgerError) -> Bool in try openRows(job: job) }
    }

    /// Whether `job` has a `pending` or `claimed` row (an EXISTS probe of `records_open`).
    func openRows(job: String) throws(LedgerError) -> Bool {
        try connection.queryFirst(
            "SELECT EXISTS(SELECT 1 FROM records WHERE job = ? AND \(Ledger.isOpen))", [.text(job)]
        ) {
            $0.int(0)
        } == 1
    }

    /// One row of `job`, or `nil`.
    public func record(job: String, row: Int) async throws(LedgerError) -> RecordInfo? {
        try await perform { () throws(LedgerError) in
            try connection.queryFirst(
                "SELECT \(Ledger.recordColumns) FROM records WHERE job = ? AND row = ?", [.text(job), .int(row)]
            ) { s throws(LedgerError) in try Ledger.recordInfo(s) }
        }
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
        try await perform { () throws(LedgerError) in
            try connection.query(
                """
                SELECT \(Ledger.tagColumns) FROM tags WHERE (job, row) IN (
                    SELECT job, row FROM records WHERE uid = ? AND \(Ledger.isLive) AND state = 'done')
                ORDER BY recorded_at
                """, [.text(LedgerFormat.uid(uid))]
            ) { s throws(LedgerError) in try Ledger.provisionedTag(s) }
        }
    }

    /// The audit trail of `job` (or of the whole ledger when `nil`), oldest first.
    public func events(job: String?) async throws(LedgerError) -> [LedgerEvent] {
        try await perform { () throws(LedgerError) in
            try connection.query(
                "SELECT id, job, row, kind, actor, detail, at FROM events WHERE ?1 IS NULL OR job = ?1 ORDER BY id",
                [.string(job)]
            ) { s throws(LedgerError) in
                LedgerEvent(
                    id: s.int(0), job: s.optionalText(1), row: s.optionalInt(2), kind: s.text(3),
                    actor: s.optionalText(4), detail: s.optionalText(5), at: try LedgerFormat.date(s.text(6)))
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
        guard let state = RecordState(rawValue: s.text(5)) else {
            throw LedgerError(.invalidData, "unknown record state \(s.text(5))")
        }
        return RecordInfo(
            job: s.text(0), row: s.int(1), fields: try LedgerFormat.fields(s.text(2)),
            messageSHA256: try LedgerFormat.bytes(s.text(3)), messageLength: s.int(4), state: state,
            uid: try s.optionalText(6).map { text throws(LedgerError) in try LedgerFormat.bytes(text) },
            claimedBy: s.optionalText(7), attempts: s.int(8), claimedAt: try LedgerFormat.date(s.optionalText(9)),
            finishedAt: try LedgerFormat.date(s.optionalText(10)))
    }

    static let attemptColumns = """
        uid, row, reader, outcome, failure_class, failure_detail, phase, page, detect_us, identify_us, write_us,
        verify_us, lock_us, ledger_us, removal_us, exchanges, airtime_us, started_at, finished_at
        """

    static func attempt(_ s: some SQLRow) throws(LedgerError) -> AttemptRecord {
        AttemptRecord(
            uid: try LedgerFormat.bytes(s.text(0)), row: s.optionalInt(1), reader: s.text(2),
            outcome: AttemptRecord.Outcome(rawValue: s.text(3)), failureClass: s.optionalText(4),
            failureDetail: s.optionalText(5), phase: s.optionalText(6), page: s.optionalInt(7),
            durations: AttemptRecord.PhaseDurations(
                detect: s.optionalInt(8), identify: s.optionalInt(9), write: s.optionalInt(10),
                verify: s.optionalInt(11), lock: s.optionalInt(12), ledger: s.optionalInt(13),
                removal: s.optionalInt(14)),
            exchanges: s.int(15), modelledAirtimeMicroseconds: s.optionalInt(16),
            startedAt: try LedgerFormat.date(s.text(17)), finishedAt: try LedgerFormat.date(s.text(18)))
    }

    static let tagColumns = """
        job, row, uid, chip, bytes_sha256, byte_count, locked, signature_status, written_at, recorded_at,
        key_id, key_fingerprint, family
        """

    static func provisionedTag(_ s: some SQLRow) throws(LedgerError) -> ProvisionedTag {
        ProvisionedTag(
            job: s.text(0), row: s.int(1),
            tag: TagRecord(
                uid: try LedgerFormat.bytes(s.text(2)), chip: s.text(3), bytesSHA256: try LedgerFormat.bytes(s.text(4)),
                byteCount: s.int(5), locked: s.int(6) != 0, signatureStatus: s.optionalText(7),
                writtenAt: try LedgerFormat.date(s.text(8)), keyID: s.optionalText(10),
                keyFingerprint: s.optionalText(11), family: s.optionalText(12) ?? "type2"),
            recordedAt: try LedgerFormat.date(s.text(9)))
    }
}
