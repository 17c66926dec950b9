import Foundation
import JSONReader
import Support

/// The outbox of tag events (docs/events.md): each row outcome writes its event in its own transaction, and readers
/// (`provision events`, a publisher) take them in sequence order and mark them published.
extension SQLLedger {
    /// Records the job's public field names (its manifest's `"public"`), which each of its events carries with the
    /// row's values. Idempotent; a ledger server lets a station record them while the job has none.
    public func setPublicFields(job: String, fields: [String]) async throws(LedgerError) {
        let json = try Ledger.publicFieldsJSON(fields)
        try await write { () throws(LedgerError) in
            let changed = try connection.run(
                "UPDATE jobs SET public_fields = ? WHERE name = ?", [.string(json), .text(job)])
            guard changed == 1 else { throw LedgerError(.unknownJob, "job \(job) is not registered in \(location)") }
        }
    }

    /// The outbox's events after sequence `after`, oldest first, at most `limit`: of one job (`nil`: every job and
    /// the events of none), of one station (`nil`: all; else with the events no station wrote), and only those
    /// not yet published when `unpublishedOnly`.
    public func outboxEvents(
        job: String?, station: String?, after: Int, limit: Int, unpublishedOnly: Bool
    ) async throws(LedgerError) -> [OutboxEvent] {
        var sql = "SELECT \(Ledger.outboxColumns) FROM outbox WHERE sequence > ?\(connection.outboxSettled)"
        var values: [SQLiteValue] = [.int(after)]
        let (condition, scope) = Self.outboxScope(job: job, station: station)
        sql += condition
        values += scope
        if unpublishedOnly { sql += " AND published_at IS NULL" }
        sql += " ORDER BY sequence LIMIT ?"
        values.append(.int(max(0, limit)))
        return try await perform { () throws(LedgerError) in
            try connection.query(sql, values) { s throws(LedgerError) in try Ledger.outboxEvent(s) }
        }
    }

    /// The sequence of event `id`, or `nil` for no such event.
    public func outboxSequence(of id: String) async throws(LedgerError) -> Int? {
        try await perform { () throws(LedgerError) in
            try connection.queryFirst("SELECT sequence FROM outbox WHERE id = ?", [.text(id)]) { $0.int("sequence") }
        }
    }

    /// Marks the events `ids` published at `at`; events already published keep their first time (idempotent).
    ///
    /// Committed `.deferred` (not synced): a mark lost to a power loss only sends its event again, which consumers
    /// dedupe by id (docs/events.md, "Publishing"), and the line's own commits do not wait for the publisher's sync.
    ///
    /// - Returns: how many events this call marked.
    @discardableResult
    public func markPublished(ids: [String], at: Date) async throws(LedgerError) -> Int {
        guard !ids.isEmpty else { return 0 }
        let time = LedgerFormat.time(at)
        return try await write(durability: .deferred) { () throws(LedgerError) -> Int in
            var marked = 0
            for id in ids {
                marked += try connection.run(
                    "UPDATE outbox SET published_at = ? WHERE id = ? AND published_at IS NULL",
                    [.text(time), .text(id)])
            }
            return marked
        }
    }

    /// How many events are not yet published: of one job (and the events of none), or of all; of one station (and
    /// the events no station wrote), or of all.
    public func outboxBacklog(job: String?, station: String?) async throws(LedgerError) -> Int {
        let (condition, values) = Self.outboxScope(job: job, station: station)
        return try await perform { () throws(LedgerError) in
            try connection.queryFirst(
                "SELECT count(*) AS backlog FROM outbox WHERE published_at IS NULL" + condition, values
            ) { $0.int("backlog") } ?? 0
        }
    }

    /// The `AND …` conditions and their values that keep one job's and one station's events (each `nil`: all).
    private static func outboxScope(job: String?, station: String?) -> (String, [SQLiteValue]) {
        var condition = ""
        var values: [SQLiteValue] = []
        if let job {
            condition += " AND (job = ? OR job IS NULL)"
            values.append(.text(job))
        }
        if let station {
            condition += " AND (station = ? OR station IS NULL)"
            values.append(.text(station))
        }
        return (condition, values)
    }

    // MARK: - Inside a transaction

    /// Writes the event `facts` describe, inside the caller's transaction; the row's public fields are read here.
    func insertOutboxEvent(_ facts: OutboxFacts) throws(LedgerError) {
        var facts = facts
        if let job = facts.job, let row = facts.row { facts.publicFields = try publicFields(job: job, row: row) }
        try connection.run(
            "INSERT INTO outbox(id, job, row, station, outcome, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                .text(OutboxEvent.makeID()), .string(facts.job), .int(facts.row), .string(facts.station),
                .text(facts.outcome.rawValue), .text(try facts.payload()), .text(facts.at),
            ])
    }

    /// The job's public fields of row `row` (the names the job recorded, with the row's values; `[:]` for none).
    private func publicFields(job: String, row: Int) throws(LedgerError) -> [String: String] {
        guard
            let (names, fields) = try connection.queryFirst(
                """
                SELECT j.public_fields, r.fields_json FROM jobs j JOIN records r ON r.job = j.name AND r.row = ?
                WHERE j.name = ?
                """, [.int(row), .text(job)], { ($0.optionalText("public_fields"), $0.text("fields_json")) }),
            let names, names != "[]"
        else { return [:] }
        let values = try LedgerFormat.fields(fields)
        var shown: [String: String] = [:]
        for name in try Ledger.publicFieldNames(names) { shown[name] = values[name] }
        return shown
    }

    /// What a row holds for its events: the UID, the reader that claimed it, and a done row's tag.
    func outboxRowFacts(job: String, row: Int, outcome: OutboxEvent.Outcome, at: String)
        throws(LedgerError) -> OutboxFacts
    {
        var facts = OutboxFacts(outcome, job: job, row: row, at: at)
        _ = try connection.queryFirst(
            "SELECT uid, claimed_by, chip, family, key_id, key_fingerprint FROM records WHERE job = ? AND row = ?",
            [.text(job), .int(row)]
        ) { s in
            facts.uid = s.optionalText("uid")
            facts.reader = s.optionalText("claimed_by")
            facts.chip = s.optionalText("chip")
            facts.family = s.optionalText("family")
            facts.keyID = s.optionalText("key_id")
            facts.keyFingerprint = s.optionalText("key_fingerprint")
        }
        facts.station = facts.reader.flatMap(OpenClaim.station(ofReader:))
        return facts
    }

    /// Writes the event of an abandoned key change: the tag's live row in `job` (if any) and the key it kept.
    func insertAbandonedKeyChange(job: String, _ change: KeyChange, at: String) throws(LedgerError) {
        let uid = LedgerFormat.uid(change.uid)
        let row = try connection.queryFirst(
            "SELECT row FROM records WHERE uid = ? AND \(Ledger.isLive) AND job = ?", [.text(uid), .text(job)]
        ) { $0.int("row") }
        var event =
            try row.map { row throws(LedgerError) in
                try outboxRowFacts(job: job, row: row, outcome: .keyChangeAbandoned, at: at)
            } ?? OutboxFacts(.keyChangeAbandoned, job: job, row: nil, at: at)
        event.uid = uid
        (event.keyID, event.keyFingerprint, event.keyChange) = (change.keyID, change.oldFingerprint, change)
        try insertOutboxEvent(event)
    }

    /// The row's last failed attempt (its failure class and timings), or `nil`.
    func lastFailedAttempt(job: String, row: Int) throws(LedgerError) -> AttemptRecord? {
        try connection.queryFirst(
            "SELECT \(Ledger.attemptColumns) FROM attempts WHERE job = ? AND row = ? AND outcome = 'failed' "
                + "ORDER BY id DESC LIMIT 1", [.text(job), .int(row)]
        ) { s throws(LedgerError) in try Ledger.attempt(s) }
    }
}

/// The statements and row decoders both stores share.
extension Ledger {
    /// The failure class of a quarantined tag: its originality signature did not verify under `require`.
    static let quarantineClass = "signatureInvalid"

    static let outboxColumns = "sequence, id, job, row, station, outcome, payload, created_at, published_at"

    static func outboxEvent(_ s: some SQLRow) throws(LedgerError) -> OutboxEvent {
        guard let outcome = OutboxEvent.Outcome(rawValue: s.text("outcome")) else {
            throw LedgerError(.invalidData, "outbox outcome '\(s.text("outcome"))'")
        }
        return OutboxEvent(
            id: s.text("id"), sequence: s.int("sequence"), job: s.optionalText("job"), row: s.optionalInt("row"),
            station: s.optionalText("station"), outcome: outcome, payload: s.text("payload"),
            createdAt: try LedgerFormat.date(s.text("created_at")),
            publishedAt: try LedgerFormat.date(s.optionalText("published_at")))
    }

    /// The public field names as stored: a JSON array of strings, `nil` for none.
    static func publicFieldsJSON(_ names: [String]) throws(LedgerError) -> String? {
        guard !names.isEmpty else { return nil }
        do { return String(decoding: try LedgerFormat.makeEncoder().encode(names), as: UTF8.self) } catch {
            throw LedgerError(.invalidData, "cannot encode public field names: \(error)")
        }
    }

    /// The public field names read back.
    static func publicFieldNames(_ json: String) throws(LedgerError) -> [String] {
        guard case .array(let items)? = try? JSONValue.parse(Array(json.utf8)) else {
            throw LedgerError(.invalidData, "jobs.public_fields is not a JSON array: \(json)")
        }
        return items.compactMap { if case .string(let name) = $0 { name } else { nil } }
    }
}
