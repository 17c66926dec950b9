/// Counters on a ledger server move only through the functions of schema 5 (`PostgresCounterFunctions`), which
/// check the caller's role: no login may write `seen_counters` or `sun_counters` itself. The shared operations
/// (`acceptCounter`, `acceptSUNCounter`, `markDone`) call these in their transaction.
extension PostgresLedger {
    /// The verifier's check and move forward of an NTAG21x seen counter: one call, one statement inside.
    func advanceSeenCounter(job: String, uid: String, counter: Int, at time: String, window: Int)
        throws(LedgerError) -> Bool
    {
        try connection.queryFirst(
            "SELECT provision_advance_seen_counter(?, ?, ?, ?, ?)::integer AS won",
            [.text(job), .text(uid), .int(counter), .text(time), .int(window)]
        ) { $0.int("won") } == 1
    }

    /// A verified SUN counter, recorded by the verifier, or by the station whose claim the tag is (a run's own
    /// read-back): one call, one statement inside; the server names who recorded it (`sun_counters.station`).
    func recordSUNCounter(job: String, uid: String, counter: Int, at time: String) throws(LedgerError) -> Bool {
        try connection.queryFirst(
            "SELECT provision_advance_sun_counter(?, ?, ?::integer, ?)::integer AS won",
            [.text(job), .text(uid), .int(counter), .text(time)]
        ) { $0.int("won") } == 1
    }
}
