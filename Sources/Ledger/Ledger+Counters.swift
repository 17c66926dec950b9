import Foundation

/// Last-seen NFC counters for `provision verify-url` (schema version 2, table `seen_counters`).
extension Ledger {
    /// The last counter accepted for `uid` in `job`, if any.
    public func lastSeenCounter(job: String, uid: [UInt8]) async throws(LedgerError) -> Int? {
        let uidText = LedgerFormat.uid(uid)
        return try await perform { () throws(LedgerError) in
            try connection.queryFirst(
                "SELECT counter FROM seen_counters WHERE job = ? AND uid = ?", [.text(job), .text(uidText)]
            ) { $0.int(0) }
        }
    }

    /// Accepts `counter` for `uid` when it is above the last one seen (atomically), and stores it.
    ///
    /// - Returns: `false` when the counter is not above the last one seen (a replayed URL).
    public func acceptCounter(job: String, uid: [UInt8], counter: Int) async throws(LedgerError) -> Bool {
        let uidText = LedgerFormat.uid(uid)
        let now = LedgerFormat.time(Date())
        return try await perform { () throws(LedgerError) in
            try connection.transaction(.immediate) { () throws(LedgerError) in
                let changed = try connection.run(
                    """
                    INSERT INTO seen_counters(job, uid, counter, seen_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(job, uid) DO UPDATE SET counter = excluded.counter, seen_at = excluded.seen_at
                    WHERE excluded.counter > seen_counters.counter
                    """, [.text(job), .text(uidText), .int(counter), .text(now)])
                return changed > 0
            }
        }
    }
}

extension Ledger {
    /// The fields of `row` in `job` as stored when the rows were added, or `nil` for no such row.
    public func rowFields(job: String, row: Int) async throws(LedgerError) -> [String: String]? {
        let json = try await perform { () throws(LedgerError) in
            try connection.queryFirst(
                "SELECT fields_json FROM records WHERE job = ? AND row = ?", [.text(job), .int(row)]
            ) { $0.text(0) }
        }
        guard let json else { return nil }
        return try LedgerFormat.fields(json)
    }
}
