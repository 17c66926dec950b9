/// The server side of `LedgerCopy`: the refusals, and the inserts of a copied job in one transaction.
extension PostgresLedger {
    /// At most this many values in one INSERT (the protocol allows 65 535 parameters a statement).
    static let copyValuesPerStatement = 30_000

    /// Inserts a job read from a SQLite ledger (`tables` parallel to `CopyTable.all`, each row the table's
    /// `serverColumns`) in one transaction, after refusing a job the server already has and a UID done in
    /// another job, and compares what it wrote row by row before it commits; nothing is written when it throws.
    func insertCopy(job: String, tables: [[[String?]]]) async throws(LedgerError) -> CopyCounts {
        try await write { () throws(LedgerError) -> CopyCounts in
            try refuseExisting(job: job)
            let records = CopyTable.records
            let state = records.columns.firstIndex { $0.name == "state" } ?? 0
            let uid = records.columns.firstIndex { $0.name == "uid" } ?? 0
            let recordRows = CopyTable.all.firstIndex { $0.name == records.name }.map { tables[$0] } ?? []
            try refuseDoneElsewhere(
                job: job, uids: recordRows.filter { $0[state] == RecordState.done.rawValue }.compactMap { $0[uid] })
            for (table, rows) in zip(CopyTable.all, tables) { try insert(rows, into: table) }
            let found = try readCopyRows(job: job, server: true)
            for (index, table) in CopyTable.all.enumerated() {
                try LedgerCopy.compare(table, job: job, expected: tables[index], found: found[index])
            }
            return CopyCounts(job: job, tables: tables)
        }
    }

    /// The refusals of `insertCopy`, before anything is written (`LedgerCopy.check`).
    func checkCopy(job: String, doneUIDs: [String]) async throws(LedgerError) {
        try await perform { () throws(LedgerError) in
            try refuseExisting(job: job)
            try refuseDoneElsewhere(job: job, uids: doneUIDs)
        }
    }

    /// Refuses a job any table of the server already holds rows of (inside the caller's transaction or
    /// `perform`).
    func refuseExisting(job: String) throws(LedgerError) {
        for table in CopyTable.all {
            let count =
                try connection.queryFirst(
                    "SELECT count(*) AS n FROM \(table.name) WHERE \(table.jobColumn) = ?", [.text(job)]
                ) { $0.int("n") } ?? 0
            guard count == 0 else {
                throw LedgerError(
                    .jobExists,
                    "the server ledger \(location) already has job \(job) (in its table \(table.name)): a job is "
                        + "copied once; nothing was copied")
            }
        }
    }

    /// Refuses when one of `uids` (done in `job` of the SQLite file) is done in another job on the server.
    func refuseDoneElsewhere(job: String, uids: [String]) throws(LedgerError) {
        guard !uids.isEmpty else { return }
        let elements = uids.map { "\"" + $0.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\"" }
        let conflict = try connection.queryFirst(
            "SELECT uid, job, row FROM records WHERE state = 'done' AND job <> ? AND uid = ANY(?::text[]) "
                + "ORDER BY uid, job LIMIT 1",
            [.text(job), .text("{" + elements.joined(separator: ",") + "}")]
        ) { (uid: $0.text("uid"), job: $0.text("job"), row: $0.int("row")) }
        if let conflict {
            throw LedgerError(
                .alreadyProvisioned,
                "UID \(conflict.uid) is done in job \(job) of the SQLite file and already done in job \(conflict.job) "
                    + "(row \(conflict.row)) on the server \(location): a UID is provisioned once across jobs; "
                    + "nothing was copied")
        }
    }

    /// Inserts `rows` into `table`, many rows a statement, integer columns bound as integers.
    private func insert(_ rows: [[String?]], into table: CopyTable) throws(LedgerError) {
        let names = table.serverColumns
        let kinds = table.columns.map(\.kind) + (table.derived == nil ? [] : [.text])
        let perStatement = max(1, Self.copyValuesPerStatement / names.count)
        let tuple = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        var start = 0
        while start < rows.count {
            let batch = rows[start..<min(rows.count, start + perStatement)]
            var values: [SQLiteValue] = []
            values.reserveCapacity(batch.count * names.count)
            for row in batch {
                for (index, text) in row.enumerated() {
                    values.append(try Self.value(text, kinds[index], table: table, column: names[index]))
                }
            }
            try connection.run(
                "INSERT INTO \(table.name)(\(names.joined(separator: ", "))) VALUES "
                    + Array(repeating: tuple, count: batch.count).joined(separator: ", "), values)
            start += batch.count
        }
    }

    /// A value as the server's column takes it.
    private static func value(_ text: String?, _ kind: CopyTable.Kind, table: CopyTable, column: String)
        throws(LedgerError) -> SQLiteValue
    {
        guard let text else { return .null }
        switch kind {
        case .text: return .text(text)
        case .integer:
            guard let number = Int64(text) else {
                throw LedgerError(
                    .invalidData, "column \(table.name).\(column) holds '\(text)', not an integer; nothing was copied")
            }
            return .integer(number)
        }
    }
}
