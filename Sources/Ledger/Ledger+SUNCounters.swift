import Foundation

/// What `acceptSUNCounter` decided about a verified SUN tap's read counter.
public enum SUNCounterVerdict: Sendable, Hashable {
    /// Above every counter verified before for the tag (`previous`, `nil` for its first tap): recorded.
    case accepted(previous: Int?)
    /// Not above the highest counter verified before (`highest`): a replayed URL; nothing recorded.
    case replayed(highest: Int)
}

/// The SUN read counters `provision verify-url` verified on a keyed chip's taps (schema version 8, table
/// `sun_counters`, docs/ledger.md).
///
/// Unlike the Type 2 counter mirror (`seen_counters`), a SUN counter is inside the MAC, so it cannot be forged: every
/// rise is accepted and there is no plausibility window. One row per verified counter keeps the tag's tap
/// history; its highest counter is one seek of the primary key `(job, uid, counter)`. The SQL is the same on both
/// stores (`ON CONFLICT DO NOTHING`, no `RETURNING`: SQLite 3.24 is enough).
extension SQLLedger {

    /// The highest counter verified for `uid` in `job`, `nil` when none was.
    public func highestSUNCounter(job: String, uid: [UInt8]) async throws(LedgerError) -> Int? {
        let uidText = LedgerFormat.uid(uid)
        return try await perform { () throws(LedgerError) in
            try highestSUNCounter(job: job, uid: uidText)
        }
    }

    /// The check and the insert as one statement (`Ledger.recordSUNCounterSQL`).
    func recordSUNCounter(job: String, uid: String, counter: Int, at time: String) throws(LedgerError) -> Bool {
        try connection.run(Ledger.recordSUNCounterSQL, [.text(job), .text(uid), .int(counter), .text(time)]) > 0
    }

    /// The highest verified counter of a tag, inside the caller's transaction.
    func highestSUNCounter(job: String, uid: String) throws(LedgerError) -> Int? {
        try connection.queryFirst(Ledger.highestSUNCounterSQL, [.text(job), .text(uid)]) { $0.optionalInt("highest") }
            ?? nil
    }
}

/// The statements and row decoders both stores share.
extension Ledger {
    /// The largest SUN read counter (SDMReadCtr, 24 bits).
    public static let maximumSUNCounter = 0xFF_FFFF

    /// A tag's highest verified counter: one seek of the primary key (`LedgerWritePathTests`-style plan check in
    /// `Ledger+SUNCountersTests`).
    static let highestSUNCounterSQL = "SELECT max(counter) AS highest FROM sun_counters WHERE job = ? AND uid = ?"

    /// A tag's highest verified counter below `?3`: what a counter just recorded rose from.
    static let highestSUNCounterBelowSQL =
        "SELECT max(counter) AS highest FROM sun_counters WHERE job = ? AND uid = ? AND counter < ?"

    /// Records counter `?3` of tag `?2` in job `?1`, verified at `?4`, unless a counter as high or higher is
    /// recorded: one statement that changes one row for exactly one of several callers (`acceptSUNCounter`). The
    /// `WHERE` of the `SELECT` also lets SQLite parse the `ON CONFLICT`.
    static let recordSUNCounterSQL = """
        INSERT INTO sun_counters(job, uid, counter, verified_at)
        SELECT ?1, ?2, ?3, ?4
        WHERE NOT EXISTS (SELECT 1 FROM sun_counters WHERE job = ?1 AND uid = ?2 AND counter >= ?3)
        ON CONFLICT DO NOTHING
        """
}
