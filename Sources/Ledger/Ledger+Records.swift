import Foundation

/// The records behind a job (schema 5): the records file's hash, the fields as registered, and an append
/// job's original messages.
extension SQLLedger {
    /// Stores the records file's hash for `job`; with `event`, records the change as that event kind
    /// (`recordsAccepted`, `rowsAppended`) with `detail`.
    public func setRecordsHash(
        job: String, hash: String, event: String?, detail: String?
    ) async throws(LedgerError) {
        try await write { () throws(LedgerError) in
            let changed = try connection.run(
                "UPDATE jobs SET records_sha256 = ? WHERE name = ?", [.text(hash), .text(job)])
            guard changed == 1 else { throw LedgerError(.unknownJob, "job \(job) is not registered in \(location)") }
            if let event { try insertEvent(job: job, row: nil, kind: event, actor: nil, detail: detail) }
        }
    }

    /// The fields of every row of `job` as registered, by row number (to check that rows already in
    /// the ledger are unchanged before rows appended to the records file are added).
    public func registeredFields(job: String) async throws(LedgerError) -> [Int: [String: String]] {
        let rows = try await perform { () throws(LedgerError) in
            try connection.query(
                "SELECT row, fields_json FROM records WHERE job = ? AND reissue_of IS NULL ORDER BY row",
                [.text(job)]
            ) { s throws(LedgerError) in (s.int("row"), s.text("fields_json")) }
        }
        var fields: [Int: [String: String]] = [:]
        for (row, json) in rows { fields[row] = try LedgerFormat.fields(json) }
        return fields
    }
}

/// The message an append job found on a row's tag (schema 5, `records.original_message`).
extension SQLLedger {
    /// Records, durably, the message `uid`'s tag held before an append wrote to it (`[]`: empty). Only
    /// the first presentation records it: a resumed append must not take a half-written tag as original.
    ///
    /// - Returns: the original as recorded (an earlier recording wins).
    /// - Throws: `.invalidState` unless the row is claimed by `uid`.
    public func recordOriginalMessage(
        job: String, row: Int, uid: [UInt8], message: [UInt8]
    ) async throws(LedgerError) -> [UInt8] {
        let uidText = LedgerFormat.uid(uid)
        let stored = try await write { () throws(LedgerError) -> String? in
            _ = try connection.run(
                """
                UPDATE records SET original_message = ?
                WHERE job = ? AND row = ? AND uid = ? AND state = 'claimed' AND original_message IS NULL
                """, [.text(LedgerFormat.uid(message)), .text(job), .int(row), .text(uidText)])
            return try connection.queryFirst(
                "SELECT original_message FROM records WHERE job = ? AND row = ? AND uid = ? AND state = 'claimed'",
                [.text(job), .int(row), .text(uidText)]
            ) { $0.optionalText("original_message") } ?? nil
        }
        guard let stored else {
            throw LedgerError(.invalidState, "row \(row) of job \(job) is not claimed by \(uidText)")
        }
        return try LedgerFormat.bytes(stored)
    }
}
