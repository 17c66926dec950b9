import Foundation

/// What a copy of one job moved, table by table (and what a verification found alike on both sides).
public struct CopyCounts: Sendable, Hashable, Codable {
    /// The job.
    public var job: String
    /// Rows of the job (`records`).
    public var rows = 0
    /// Attempts.
    public var attempts = 0
    /// Audit-trail events.
    public var events = 0
    /// Key journal entries (`key_changes`).
    public var keyChanges = 0
    /// Verified SUN counters (`sun_counters`).
    public var sunCounters = 0
    /// Seen NFC counters (`seen_counters`).
    public var counters = 0

    /// No rows yet.
    public init(job: String) { self.job = job }

    /// The counts of a job's tables (`tables` parallel to `CopyTable.all`).
    init(job: String, tables: [[[String?]]]) {
        self.job = job
        for (table, rows) in zip(CopyTable.all, tables) {
            switch table.name {
            case CopyTable.records.name: self.rows = rows.count
            case CopyTable.attempts.name: attempts = rows.count
            case CopyTable.events.name: events = rows.count
            case CopyTable.keyChanges.name: keyChanges = rows.count
            case CopyTable.sunCounters.name: sunCounters = rows.count
            case CopyTable.seenCounters.name: counters = rows.count
            default: break
            }
        }
    }
}

/// Moves jobs from a SQLite ledger to a PostgreSQL ledger when a line outgrows one station
/// (`provision ledger copy`, docs/ledger.md "Moving up from SQLite"), and proves the copy row by row.
///
/// A job moves with its history: rows (claims stay claims, bound to their UID), attempts, events, seen
/// counters, the key journal, SUN counters and key bindings, in one server transaction, so a failure leaves nothing
/// of it. Identity columns are renumbered in their original order. A copied attempt's `station` is the station part of
/// its reader name (`STATION/READER`), else `copiedStation`. The source is only read.
public enum LedgerCopy {
    /// The station recorded for a copied attempt whose reader name names no station.
    public static let copiedStation = "copied"

    /// The station of a reader name: the part before its first `/` when that is a station name (1 to 64 of
    /// `A-Z a-z 0-9 . _ -`, as `--station` qualifies reader names), else `copiedStation`.
    public static func station(ofReader reader: String) -> String {
        guard let prefix = OpenClaim.station(ofReader: reader), LedgerName.isValid(prefix) else { return copiedStation }
        return prefix
    }

    /// Checks, before anything is written, that every job of `jobs` can be copied: it is in `source`, the
    /// server has none of its data, and none of its done UIDs is done in another job (there or in `jobs`).
    ///
    /// - Throws: `.unknownJob`, `.jobExists`, `.alreadyProvisioned` (naming the UID and both jobs).
    public static func check(jobs: [String], from source: Ledger, to destination: PostgresLedger)
        async throws(LedgerError)
    {
        var done: [String: String] = [:]
        for job in jobs {
            guard try await source.job(named: job) != nil else {
                throw LedgerError(.unknownJob, "job \(job) is not in ledger \(source.path)")
            }
            let uids = try await source.doneUIDs(job: job)
            for uid in uids {
                if let other = done[uid] {
                    throw LedgerError(
                        .alreadyProvisioned,
                        "UID \(uid) is done in both job \(other) and job \(job) of \(source.path): a UID is "
                            + "provisioned once across jobs, and the server refuses the second; nothing was copied")
                }
                done[uid] = job
            }
            try await destination.checkCopy(job: job, doneUIDs: uids)
        }
    }

    /// Copies `job` from `source` to `destination` in one server transaction, after the refusals of `check`.
    ///
    /// Before it commits, the transaction reads the job back and compares it row by row (`verify`'s
    /// comparison), so a copy that would not match is rolled back.
    ///
    /// The source's tables are read in one transaction, so a station still writing to the file cannot tear the
    /// copy (stop the station first anyway: what it writes afterwards stays behind, and `verify` then fails).
    /// - Returns: the rows copied per table.
    /// - Throws: `.unknownJob`, `.jobExists`, `.alreadyProvisioned`, `.copyMismatch`, `.invalidData` (a value
    ///   the server's column cannot hold), `.invalidState` (a column this build's copy does not know), server
    ///   errors.
    public static func copy(job: String, from source: Ledger, to destination: PostgresLedger)
        async throws(LedgerError) -> CopyCounts
    {
        try await requireKnownColumns(source: source, destination: destination)
        let tables = try await source.copyRows(job: job, server: false)
        guard tables.first?.isEmpty == false else {
            throw LedgerError(.unknownJob, "job \(job) is not in ledger \(source.path)")
        }
        return try await destination.insertCopy(job: job, tables: tables)
    }

    /// Compares every row of `job`'s tables in `source` and `destination`, column by column (identity columns
    /// aside; attempts' `station` against `station(ofReader:)`).
    ///
    /// - Returns: the rows compared per table (the same on both sides).
    /// - Throws: `.copyMismatch` naming the table, the job, the row and the first column that differs (or the
    ///   side a row is missing from); read errors.
    public static func verify(job: String, from source: Ledger, to destination: PostgresLedger)
        async throws(LedgerError) -> CopyCounts
    {
        let expected = try await source.copyRows(job: job, server: false)
        let found = try await destination.copyRows(job: job, server: true)
        for (index, table) in CopyTable.all.enumerated() {
            try compare(table, job: job, expected: expected[index], found: found[index])
        }
        return CopyCounts(job: job, tables: expected)
    }

    /// The columns of either schema that the copy neither moves nor leaves out on purpose, and those it moves
    /// that a schema lacks (both empty in a consistent build: a migration that adds a column must add it to
    /// `CopyTable`).
    static func unknownColumns(source: Ledger, destination: PostgresLedger) async throws(LedgerError) -> [String] {
        var unknown: [String] = []
        for table in CopyTable.all {
            let known = Set(table.serverColumns).union(table.leftOut)
            let sqlite = try await source.columnNames(
                "SELECT name FROM pragma_table_info(?) ORDER BY cid", table: table.name)
            let server = try await destination.columnNames(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                    + "AND table_name = ? ORDER BY ordinal_position", table: table.name)
            unknown += sqlite.filter { !known.contains($0) }.map { "\(table.name).\($0) (SQLite)" }
            unknown += server.filter { !known.contains($0) }.map { "\(table.name).\($0) (PostgreSQL)" }
            let shared = table.columns.map(\.name)
            unknown += shared.filter { !sqlite.contains($0) }.map { "\(table.name).\($0) (missing in SQLite)" }
            unknown += table.serverColumns.filter { !server.contains($0) }.map {
                "\(table.name).\($0) (missing in PostgreSQL)"
            }
        }
        return unknown
    }

    /// Refuses to copy when a column would be left behind.
    private static func requireKnownColumns(source: Ledger, destination: PostgresLedger) async throws(LedgerError) {
        let unknown = try await unknownColumns(source: source, destination: destination)
        guard unknown.isEmpty else {
            throw LedgerError(
                .invalidState,
                "this provision's ledger copy does not match the columns \(unknown.joined(separator: ", ")); "
                    + "nothing was copied")
        }
    }
}

extension SQLLedger {
    /// Every table's rows of `job` (parallel to `CopyTable.all`), read in one transaction, as text: the shared
    /// columns, then the derived one (read on the server, computed for the source).
    func copyRows(job: String, server: Bool) async throws(LedgerError) -> [[[String?]]] {
        try await perform { () throws(LedgerError) -> [[[String?]]] in
            try connection.transaction(.deferred) { () throws(LedgerError) -> [[[String?]]] in
                try readCopyRows(job: job, server: server)
            }
        }
    }

    /// `copyRows` inside the caller's transaction.
    func readCopyRows(job: String, server: Bool) throws(LedgerError) -> [[[String?]]] {
        var tables: [[[String?]]] = []
        for table in CopyTable.all {
            let names = server ? table.serverColumns : table.columns.map(\.name)
            let rows = try connection.query(table.select(names), [.text(job)]) { row in
                names.map { row.optionalText($0) }
            }
            tables.append(server ? rows : rows.map(table.withDerived))
        }
        return tables
    }

    /// The UIDs of `job`'s done rows, in row order.
    func doneUIDs(job: String) async throws(LedgerError) -> [String] {
        try await perform { () throws(LedgerError) in
            try connection.query(
                "SELECT uid FROM records WHERE job = ? AND state = 'done' ORDER BY row", [.text(job)]
            ) { $0.text("uid") }
        }
    }

    /// The column names `sql` lists for `table`.
    func columnNames(_ sql: String, table: String) async throws(LedgerError) -> [String] {
        try await perform { () throws(LedgerError) in try connection.query(sql, [.text(table)]) { $0.text(0) } }
    }
}
