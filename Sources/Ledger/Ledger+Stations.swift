import Foundation

/// What one reader (a station's reader, named as the attempts record it) did on a job, for `provision status`.
public struct StationActivity: Sendable, Hashable {
    /// The reader's name in the attempts.
    public var reader: String
    /// Attempts, and those that ended `done`.
    public var attempts: Int, done: Int
    /// The first attempt's start and the last attempt's end.
    public var firstAt: Date, lastAt: Date
    /// Tags done within the recent window.
    public var recentDone: Int
    /// The last failed attempt.
    public var lastFailure: StationFailure?

    /// Creates an activity record (the ledger builds them; tests and reports may too).
    public init(reader: String, attempts: Int, done: Int, firstAt: Date, lastAt: Date, recentDone: Int) {
        self.reader = reader
        self.attempts = attempts
        self.done = done
        self.firstAt = firstAt
        self.lastAt = lastAt
        self.recentDone = recentDone
    }
}

/// A station's failed attempt: its failure class, detail and end.
public struct StationFailure: Sendable, Hashable {
    public var failureClass: String
    public var detail: String
    public var at: Date

    /// Creates the record.
    public init(failureClass: String, detail: String, at: Date) {
        self.failureClass = failureClass
        self.detail = detail
        self.at = at
    }
}

extension SQLLedger {
    /// Every reader's activity on `job`: attempts and done tags, first and last moments, the tags done since
    /// `recentSince`, and its last failure (two grouped reads of `attempts`, in SQL both stores run).
    public func stationActivity(job: String, recentSince: Date) async throws(LedgerError) -> [StationActivity] {
        try await perform { () throws(LedgerError) -> [StationActivity] in
            var stations = try connection.query(
                Ledger.readerActivitySQL + " ORDER BY reader", [.text(job), .text(LedgerFormat.time(recentSince))]
            ) { s throws(LedgerError) in
                StationActivity(
                    reader: s.text("reader"), attempts: s.int("attempts"), done: s.int("done"),
                    firstAt: try LedgerFormat.date(s.text("first_at")),
                    lastAt: try LedgerFormat.date(s.text("last_at")),
                    recentDone: s.int("recent_done"))
            }
            let failures = try connection.query(
                """
                SELECT reader, failure_class, failure_detail, finished_at FROM (
                    SELECT reader, failure_class, failure_detail, finished_at,
                           row_number() OVER (PARTITION BY reader ORDER BY finished_at DESC, id DESC) AS n
                    FROM attempts WHERE job = ?1 AND outcome = 'failed') AS latest
                WHERE n = 1
                """, [.text(job)]
            ) { s throws(LedgerError) in
                (
                    s.text("reader"), s.optionalText("failure_class") ?? "failed",
                    s.optionalText("failure_detail") ?? "",
                    try LedgerFormat.date(s.text("finished_at"))
                )
            }
            for (reader, failureClass, detail, at) in failures {
                guard let index = stations.firstIndex(where: { $0.reader == reader }) else { continue }
                stations[index].lastFailure = StationFailure(failureClass: failureClass, detail: detail, at: at)
            }
            return stations
        }
    }
}

/// A claimed row: held by a tag (its UID) that has not come back, and the reader that claimed it.
public struct OpenClaim: Sendable, Hashable {
    public var row: Int
    public var uid: [UInt8]
    /// The claiming reader's name, `STATION/READER` on a line of stations.
    public var claimedBy: String
    public var claimedAt: Date

    /// The station part of `claimedBy` (before the first `/`), or `nil` for a reader without one.
    public var station: String? { Self.station(ofReader: claimedBy) }

    /// The station part of a reader name as attempts and claims record it (`STATION/READER`): the part before
    /// the first `/` when it has no `:` (`sim:CHIP`, `pcsc:ACS …:0` name no station), else `nil`.
    public static func station(ofReader reader: String) -> String? {
        reader.firstIndex(of: "/").map { String(reader[..<$0]) }.flatMap { $0.contains(":") ? nil : $0 }
    }
}

/// What is left of a job for a station: whether a row is pending, and the rows claimed (by this station's tags
/// or another's). A station whose open rows are all another station's has nothing left to claim.
public struct RemainingWork: Sendable, Hashable {
    /// Whether some row is `pending` (any station may claim it).
    public var hasPending: Bool
    /// The claimed rows, oldest claim first.
    public var claims: [OpenClaim]

    /// Creates the record.
    public init(hasPending: Bool, claims: [OpenClaim]) {
        self.hasPending = hasPending
        self.claims = claims
    }
}

extension SQLLedger {
    /// The job's claimed rows, oldest claim first (`status` lists those whose station is gone as stranded).
    public func openClaims(job: String) async throws(LedgerError) -> [OpenClaim] {
        try await perform { () throws(LedgerError) -> [OpenClaim] in try claims(job: job) }
    }

    /// Whether the job has a pending row (an EXISTS probe of `records_open`) and its claimed rows.
    public func remainingWork(job: String) async throws(LedgerError) -> RemainingWork {
        try await perform { () throws(LedgerError) -> RemainingWork in
            let pending =
                try connection.queryFirst(
                    "SELECT EXISTS(SELECT 1 FROM records WHERE job = ? AND \(Ledger.isOpen) AND state = 'pending') "
                        + "AS has_pending",
                    [.text(job)]
                ) { $0.int("has_pending") } == 1
            return RemainingWork(hasPending: pending, claims: try claims(job: job))
        }
    }

    private func claims(job: String) throws(LedgerError) -> [OpenClaim] {
        try connection.query(
            """
            SELECT row, uid, coalesce(claimed_by, '') AS claimed_by, claimed_at FROM records
            WHERE job = ?1 AND state = 'claimed' ORDER BY claimed_at, row
            """, [.text(job)]
        ) { s throws(LedgerError) in
            OpenClaim(
                row: s.int("row"), uid: try LedgerFormat.bytes(s.text("uid")), claimedBy: s.text("claimed_by"),
                claimedAt: try LedgerFormat.date(s.text("claimed_at")))
        }
    }
}
