import Foundation

/// The records file behind a job's rows: its hash, and the fields as registered (schema 5).
extension Ledger {
    /// Stores the records file's hash for `job`; with `event`, records the change as that event kind
    /// (`recordsAccepted`, `rowsAppended`) with `detail`.
    public func setRecordsHash(
        job: String, hash: String, event: String? = nil, detail: String? = nil
    ) async throws(LedgerError) {
        try await write { () throws(LedgerError) in
            let changed = try connection.run(
                "UPDATE jobs SET records_sha256 = ? WHERE name = ?", [.text(hash), .text(job)])
            guard changed == 1 else { throw LedgerError(.unknownJob, "job \(job) is not registered in \(path)") }
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
            ) { s throws(LedgerError) in (s.int(0), s.text(1)) }
        }
        var fields: [Int: [String: String]] = [:]
        for (row, json) in rows { fields[row] = try LedgerFormat.fields(json) }
        return fields
    }
}
