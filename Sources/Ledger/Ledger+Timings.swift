/// Late timing figures: the ledger commit and the removal wait of a done tag are only known after
/// its durable commit, so workers batch them here instead of paying a second commit per tag.
extension Ledger {
    /// Ledger-commit and removal durations (µs) of one done tag.
    public struct LateTiming: Sendable, Hashable {
        /// The tag's UID.
        public var uid: [UInt8]
        /// The row it was done as (finds the attempt through `attempts_by_row`).
        public var row: Int
        /// Measured time of the `markDone` commit.
        public var ledgerMicroseconds: Int
        /// Measured time from release until the tag left.
        public var removalMicroseconds: Int?

        /// Creates a timing entry.
        public init(uid: [UInt8], row: Int, ledgerMicroseconds: Int, removalMicroseconds: Int?) {
            self.uid = uid
            self.row = row
            self.ledgerMicroseconds = ledgerMicroseconds
            self.removalMicroseconds = removalMicroseconds
        }
    }
}

extension SQLLedger {
    /// Stores the late timings of done attempts in one transaction (best effort statistics: losing
    /// them in a crash loses no row or tag state).
    public func recordLateTimings(job: String, _ timings: [Ledger.LateTiming]) async throws(LedgerError) {
        guard !timings.isEmpty else { return }
        try await write { () throws(LedgerError) in
            for timing in timings {
                try connection.run(
                    """
                    UPDATE attempts SET ledger_us = ?, removal_us = ?
                    WHERE job = ? AND row = ? AND uid = ? AND outcome = 'done'
                    """,
                    [
                        .int(timing.ledgerMicroseconds), .int(timing.removalMicroseconds), .text(job),
                        .int(timing.row), .text(LedgerFormat.uid(timing.uid)),
                    ])
            }
        }
    }
}
