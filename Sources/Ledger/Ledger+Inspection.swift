import Support

/// Raw access for diagnostics and tests: fixed SQL only, values always bound.
extension Ledger {
    /// Runs a fixed script (no values) on this connection, outside any transaction the ledger manages.
    func rawExecute(_ script: String) async throws(LedgerError) {
        try await perform { () throws(LedgerError) in try connection.execute(script) }
    }

    /// Runs a query with bound text values and returns every row as text (`nil` for `NULL`).
    func rawQuery(_ sql: String, _ values: [String] = []) async throws(LedgerError) -> [[String?]] {
        try await perform { () throws(LedgerError) in
            try connection.query(sql, values.map { .text($0) }) { statement in
                let count = statement.columnCount
                return (0..<count).map { statement.optionalText($0) }
            }
        }
    }
}

extension Ledger {
    /// Whether `perform` bodies (the SQLite calls) run on this ledger's own serial queue.
    func sqliteRunsOnOwnQueue() async throws(LedgerError) -> Bool {
        try await perform { () throws(LedgerError) in executor.isCurrent }
    }
}
