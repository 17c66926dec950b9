import Foundation

/// Last-seen NFC counters for `provision verify-url` (schema version 2, table `seen_counters`).
extension SQLLedger {
    /// The last counter accepted for `uid` in `job`, if any.
    public func lastSeenCounter(job: String, uid: [UInt8]) async throws(LedgerError) -> Int? {
        let uidText = LedgerFormat.uid(uid)
        return try await perform { () throws(LedgerError) in
            try connection.queryFirst(
                "SELECT counter FROM seen_counters WHERE job = ? AND uid = ?", [.text(job), .text(uidText)]
            ) { $0.int("counter") }
        }
    }

    /// Accepts `counter` for `uid` when it is above the last one seen and at most `window` above it, and stores
    /// it; a UID never seen counts from 0.
    ///
    /// The Type 2 counter mirror is not covered by the URL's MAC, so anyone can edit it: a jump of
    /// more than `window` is `implausible` and not stored, so a forged `FFFFFF` cannot make every
    /// later genuine tap look replayed.
    ///
    /// The check and the move forward are one statement (`advanceCounterSQL`) on every store: of several
    /// verifiers accepting the same counter at once (connections, processes, stations on one server) exactly one
    /// changes the row and answers `accepted`; the others change nothing and read why (`replayed`, or
    /// `implausible` for a jump). PostgreSQL's `ON CONFLICT DO UPDATE … WHERE` locks the row and re-checks the
    /// condition on its newest version, so READ COMMITTED cannot let two callers pass one check.
    public func acceptCounter(
        job: String, uid: [UInt8], counter: Int, window: Int
    ) async throws(LedgerError) -> CounterVerdict {
        let uidText = LedgerFormat.uid(uid)
        let now = LedgerFormat.time(Date())
        return try await perform { () throws(LedgerError) in
            try connection.transaction(.immediate) { () throws(LedgerError) in
                if try advanceSeenCounter(job: job, uid: uidText, counter: counter, at: now, window: window) {
                    return .accepted
                }
                let last = try connection.queryFirst(
                    "SELECT counter FROM seen_counters WHERE job = ? AND uid = ?", [.text(job), .text(uidText)]
                ) { $0.int("counter") }
                if let last, counter <= last { return .replayed(last: last) }
                return .implausible(last: last ?? 0)
            }
        }
    }

    /// The check and the move forward as one statement (`Ledger.advanceCounterSQL`).
    func advanceSeenCounter(job: String, uid: String, counter: Int, at time: String, window: Int)
        throws(LedgerError) -> Bool
    {
        try connection.run(
            Ledger.advanceCounterSQL, [.text(job), .text(uid), .int(counter), .text(time), .int(window)]) > 0
    }
}

extension Ledger {
    /// Stores a tag's counter (`?1` job, `?2` UID, `?3` counter, `?4` time, `?5` window) only when it rises by
    /// 1…window over the stored one, or is at most the window for a UID never seen: one statement, one row changed
    /// for the caller that moved the counter, none for any other. The `WHERE` of the `SELECT` keeps a first jump
    /// beyond the window out (and lets SQLite parse the `ON CONFLICT`); the plain change count (no `RETURNING`)
    /// keeps SQLite 3.24 enough.
    static let advanceCounterSQL = """
        INSERT INTO seen_counters(job, uid, counter, seen_at)
        SELECT ?1, ?2, ?3, ?4
        WHERE ?3 <= ?5 OR EXISTS (SELECT 1 FROM seen_counters WHERE job = ?1 AND uid = ?2)
        ON CONFLICT(job, uid) DO UPDATE SET counter = excluded.counter, seen_at = excluded.seen_at
        WHERE seen_counters.counter < excluded.counter AND excluded.counter - seen_counters.counter <= ?5
        """
}

/// What `acceptCounter` decided about a tap's counter.
public enum CounterVerdict: Sendable, Hashable {
    /// Above the last one seen, within the window: stored.
    case accepted
    /// Not above the last one seen (`last`): a replayed URL.
    case replayed(last: Int)
    /// More than the window above the last one seen (`last`, 0 for a new UID): not stored.
    case implausible(last: Int)
}

extension SQLLedger {
    /// The fields of `row` in `job` as stored when the rows were added, or `nil` for no such row.
    public func rowFields(job: String, row: Int) async throws(LedgerError) -> [String: String]? {
        let json = try await perform { () throws(LedgerError) in
            try connection.queryFirst(
                "SELECT fields_json FROM records WHERE job = ? AND row = ?", [.text(job), .int(row)]
            ) { $0.text("fields_json") }
        }
        guard let json else { return nil }
        return try LedgerFormat.fields(json)
    }
}
