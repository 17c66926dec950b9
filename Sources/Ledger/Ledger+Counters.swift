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

    /// Accepts `counter` for `uid` when it is above the last one seen and at most `window` above it
    /// (atomically), and stores it; a UID never seen counts from 0.
    ///
    /// The Type 2 counter mirror is not covered by the URL's MAC, so anyone can edit it: a jump of
    /// more than `window` is `implausible` and not stored, so a forged `FFFFFF` cannot make every
    /// later genuine tap look replayed.
    public func acceptCounter(
        job: String, uid: [UInt8], counter: Int, window: Int
    ) async throws(LedgerError) -> CounterVerdict {
        let uidText = LedgerFormat.uid(uid)
        let now = LedgerFormat.time(Date())
        return try await perform { () throws(LedgerError) in
            try connection.transaction(.immediate) { () throws(LedgerError) in
                let last = try connection.queryFirst(
                    "SELECT counter FROM seen_counters WHERE job = ? AND uid = ?", [.text(job), .text(uidText)]
                ) { $0.int("counter") }
                if let last, counter <= last { return .replayed(last: last) }
                if counter - (last ?? 0) > window { return .implausible(last: last ?? 0) }
                _ = try connection.run(
                    """
                    INSERT INTO seen_counters(job, uid, counter, seen_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(job, uid) DO UPDATE SET counter = excluded.counter, seen_at = excluded.seen_at
                    """, [.text(job), .text(uidText), .int(counter), .text(now)])
                return .accepted
            }
        }
    }
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
