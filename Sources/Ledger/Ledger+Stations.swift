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
                """
                SELECT reader, count(*), sum(CASE WHEN outcome = 'done' THEN 1 ELSE 0 END), min(started_at),
                       max(finished_at), sum(CASE WHEN outcome = 'done' AND finished_at >= ?2 THEN 1 ELSE 0 END)
                FROM attempts WHERE job = ?1 GROUP BY reader ORDER BY reader
                """, [.text(job), .text(LedgerFormat.time(recentSince))]
            ) { s throws(LedgerError) in
                StationActivity(
                    reader: s.text(0), attempts: s.int(1), done: s.int(2), firstAt: try LedgerFormat.date(s.text(3)),
                    lastAt: try LedgerFormat.date(s.text(4)), recentDone: s.int(5))
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
                (s.text(0), s.optionalText(1) ?? "failed", s.optionalText(2) ?? "", try LedgerFormat.date(s.text(3)))
            }
            for (reader, failureClass, detail, at) in failures {
                guard let index = stations.firstIndex(where: { $0.reader == reader }) else { continue }
                stations[index].lastFailure = StationFailure(failureClass: failureClass, detail: detail, at: at)
            }
            return stations
        }
    }
}
