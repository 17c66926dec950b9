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
/// history; its highest counter is one seek of the primary key `(job, uid, counter)`. The SQL is plain (no
/// `ON CONFLICT`, no `RETURNING`) so another store can run the same statements.
extension SQLLedger {

    /// The highest counter verified for `uid` in `job`, `nil` when none was.
    public func highestSUNCounter(job: String, uid: [UInt8]) async throws(LedgerError) -> Int? {
        let uidText = LedgerFormat.uid(uid)
        return try await perform { () throws(LedgerError) in
            try highestSUNCounter(job: job, uid: uidText)
        }
    }

    /// Records `counter` as verified for `uid` in `job` when it is above the highest one verified before;
    /// otherwise the tap is `replayed` and nothing is written.
    ///
    /// The read and the insert run in one `BEGIN IMMEDIATE` transaction, committed with a full sync before the
    /// call returns: of two verifications of the same counter (two connections or two processes) the first to
    /// take the write lock records it and the second finds it and answers `replayed`. The primary key refuses a
    /// counter recorded twice even where a store's transactions would not serialise the two.
    ///
    /// - Throws: `LedgerError` `.invalidData` for a counter outside 0…`FFFFFF`; SQLite failures as usual.
    public func acceptSUNCounter(
        job: String, uid: [UInt8], counter: Int, at time: Date
    ) async throws(LedgerError) -> SUNCounterVerdict {
        guard (0...Ledger.maximumSUNCounter).contains(counter) else {
            throw LedgerError(.invalidData, "SUN counter \(counter) is not a 24-bit value")
        }
        let uidText = LedgerFormat.uid(uid)
        let verifiedAt = LedgerFormat.time(time)
        return try await write { () throws(LedgerError) -> SUNCounterVerdict in
            let highest = try highestSUNCounter(job: job, uid: uidText)
            if let highest, counter <= highest { return .replayed(highest: highest) }
            do throws(LedgerError) {
                try connection.run(
                    "INSERT INTO sun_counters(job, uid, counter, verified_at) VALUES (?, ?, ?, ?)",
                    [.text(job), .text(uidText), .int(counter), .text(verifiedAt)])
            } catch  where error.code == .constraint {
                return .replayed(highest: counter)
            }
            return .accepted(previous: highest)
        }
    }

    /// The highest verified counter of a tag, inside the caller's transaction.
    private func highestSUNCounter(job: String, uid: String) throws(LedgerError) -> Int? {
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
}
