import Foundation

/// The line as `provision serve`'s metrics show it, read in one statement: each reader's attempts and done tags
/// (and those done since a moment), and the job's first-pass yield. One SQL text defines them for both stores; a
/// ledger server runs it inside `provision_line_figures` (`PostgresAggregateFunctions`), so a login that may not
/// read `attempts` (the verifier) still gets the figures and never the attempts.
public struct LineFigures: Sendable, Hashable {
    /// Every reader's activity, by reader name (without its last failure).
    public var stations: [StationActivity]
    /// Rows attempted at least once.
    public var rowsAttempted: Int
    /// Rows whose first attempt ended done.
    public var rowsDoneFirstTime: Int

    /// Creates the figures (the ledger builds them; tests may too).
    public init(stations: [StationActivity], rowsAttempted: Int, rowsDoneFirstTime: Int) {
        self.stations = stations
        self.rowsAttempted = rowsAttempted
        self.rowsDoneFirstTime = rowsDoneFirstTime
    }

    /// Share of attempted rows done on their first attempt (0 when none was).
    public var firstPassYield: Double {
        rowsAttempted == 0 ? 0 : Double(rowsDoneFirstTime) / Double(rowsAttempted)
    }
}

extension Ledger {
    /// Each reader's attempts on job `?1`, those that ended done, its first start and last end, and its tags done
    /// since `?2` (an ISO timestamp): one row per reader, unordered.
    static let readerActivitySQL = """
        SELECT reader, count(*) AS attempts, sum(CASE WHEN outcome = 'done' THEN 1 ELSE 0 END) AS done,
               min(started_at) AS first_at, max(finished_at) AS last_at,
               sum(CASE WHEN outcome = 'done' AND finished_at >= ?2 THEN 1 ELSE 0 END) AS recent_done
        FROM attempts WHERE job = ?1 GROUP BY reader
        """

    /// `readerActivitySQL`, then one row whose reader is `NULL`: `attempts` is the rows attempted, `done` those whose
    /// first attempt (the lowest id) ended done. Plain SQL both stores run; `provision_line_figures`'s body.
    static let lineFiguresSQL =
        readerActivitySQL + """

            UNION ALL
            SELECT NULL, count(*), coalesce(sum(CASE WHEN a.outcome = 'done' THEN 1 ELSE 0 END), 0), NULL, NULL, 0
            FROM attempts a WHERE a.job = ?1 AND a.row IS NOT NULL
                AND a.id = (SELECT min(f.id) FROM attempts f WHERE f.job = ?1 AND f.row = a.row)
            """

    /// The figures from the rows of `lineFiguresSQL` (or of `provision_line_figures`, which returns the same).
    static func lineFigures(_ rows: [(reader: String?, activity: StationActivity)]) -> LineFigures {
        var figures = LineFigures(stations: [], rowsAttempted: 0, rowsDoneFirstTime: 0)
        for (reader, activity) in rows {
            if reader == nil {
                (figures.rowsAttempted, figures.rowsDoneFirstTime) = (activity.attempts, activity.done)
            } else {
                figures.stations.append(activity)
            }
        }
        figures.stations.sort { $0.reader < $1.reader }
        return figures
    }

    /// One row of `lineFiguresSQL`: its reader (`nil` for the first-pass row) and the counts it carries.
    static func lineFiguresRow(_ s: some SQLRow) throws(LedgerError) -> (reader: String?, activity: StationActivity) {
        let reader = s.optionalText("reader")
        let first = try LedgerFormat.date(s.optionalText("first_at"))
        let last = try LedgerFormat.date(s.optionalText("last_at"))
        return (
            reader,
            StationActivity(
                reader: reader ?? "", attempts: s.int("attempts"), done: s.int("done"),
                firstAt: first ?? .distantPast, lastAt: last ?? .distantPast, recentDone: s.int("recent_done"))
        )
    }
}

extension SQLLedger {
    /// The line figures of `job` (`lineFiguresSQL`), tags done since `recentSince` counted apart.
    public func lineFigures(job: String, recentSince: Date) async throws(LedgerError) -> LineFigures {
        try await perform { () throws(LedgerError) -> LineFigures in
            Ledger.lineFigures(
                try connection.query(
                    Ledger.lineFiguresSQL, [.text(job), .text(LedgerFormat.time(recentSince))]
                ) { s throws(LedgerError) in try Ledger.lineFiguresRow(s) })
        }
    }
}
