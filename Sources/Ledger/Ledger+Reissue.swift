import Foundation

/// Reissuing a done row whose tag was destroyed (`provision reissue`).
extension SQLLedger {
    /// Appends a new pending row with the fields and message of done row `row`, linked to it by
    /// `reissue_of`, and records a `reissue` event (who, why, the original UID). The done row stays
    /// final: its tag stays recorded, so audit still knows it.
    ///
    /// - Returns: the new row's number (after every row of the job).
    /// - Throws: `.unknownRow`, `.invalidState` (the row is not done).
    public func reissue(job: String, row: Int, by: String, reason: String) async throws(LedgerError) -> Int {
        try await write { () throws(LedgerError) -> Int in
            guard let state = try rowState(job: job, row: row) else {
                throw LedgerError(.unknownRow, "job \(job) has no row \(row)")
            }
            guard state == .done else {
                throw LedgerError(
                    .invalidState,
                    "row \(row) of job \(job) is \(state.rawValue), not done; a row that is not done is given back "
                        + "with provision release")
            }
            let last =
                try connection.queryFirst("SELECT max(row) AS last FROM records WHERE job = ?", [.text(job)]) {
                    $0.int("last")
                } ?? row
            let new = last + 1
            _ = try connection.run(
                """
                INSERT INTO records(
                    job, row, fields_json, message_sha256, message_length, state, created_at, reissue_of)
                SELECT job, ?, fields_json, message_sha256, message_length, 'pending', ?, row
                FROM records WHERE job = ? AND row = ?
                """, [.int(new), .text(LedgerFormat.time(Date())), .text(job), .int(row)])
            _ = try connection.run("UPDATE jobs SET total_rows = total_rows + 1 WHERE name = ?", [.text(job)])
            let uid =
                try connection.queryFirst(
                    "SELECT uid FROM records WHERE job = ? AND row = ?", [.text(job), .int(row)]
                ) { $0.optionalText("uid") } ?? nil
            try insertEvent(
                job: job, row: new, kind: "reissue", actor: by,
                detail: "reissue of row \(row) (uid \(uid ?? "-")): \(reason)")
            var event = try outboxRowFacts(job: job, row: row, outcome: .reissued, at: LedgerFormat.time(Date()))
            (event.row, event.reissueOf, event.actor, event.detail) = (new, row, by, reason)
            try insertOutboxEvent(event)
            return new
        }
    }

    /// Every reissue of `job`: the new row, the row it reissues, who, why, when.
    public func reissues(job: String) async throws(LedgerError) -> [Reissue] {
        try await perform { () throws(LedgerError) in
            try connection.query(
                """
                SELECT r.row, r.reissue_of, e.actor, e.detail, e.at FROM records r
                LEFT JOIN events e ON e.job = r.job AND e.row = r.row AND e.kind = 'reissue'
                WHERE r.job = ? AND r.reissue_of IS NOT NULL ORDER BY r.row
                """, [.text(job)]
            ) { s throws(LedgerError) in
                Reissue(
                    row: s.int("row"), original: s.int("reissue_of"), by: s.optionalText("actor") ?? "",
                    detail: s.optionalText("detail") ?? "", at: try LedgerFormat.date(s.optionalText("at")))
            }
        }
    }
}

/// One reissued row.
public struct Reissue: Sendable, Hashable {
    /// The new row.
    public var row: Int
    /// The done row it reissues.
    public var original: Int
    /// Who reissued it.
    public var by: String
    /// The event's detail: original UID and reason.
    public var detail: String
    /// When.
    public var at: Date?
}
