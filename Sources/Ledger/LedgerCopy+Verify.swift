/// The row-by-row comparison behind `LedgerCopy.verify`.
extension LedgerCopy {
    /// Compares one table's rows: by key where the table has one, else in recorded order.
    ///
    /// - Throws: `.copyMismatch` at the first row that is missing on one side or differs in a column.
    static func compare(_ table: CopyTable, job: String, expected: [[String?]], found: [[String?]])
        throws(LedgerError)
    {
        let keyIndices = table.keyIndices
        guard !keyIndices.isEmpty else {
            for position in 0..<max(expected.count, found.count) {
                guard position < found.count else {
                    throw mismatch(table, job, table.describe(expected[position], position: position), missing: true)
                }
                guard position < expected.count else {
                    throw mismatch(table, job, table.describe(found[position], position: position), missing: false)
                }
                try compareRow(table, job: job, expected[position], found[position], position: position)
            }
            return
        }
        func key(_ row: [String?]) -> [String?] { keyIndices.map { row[$0] } }
        var onServer: [[String?]: [String?]] = [:]
        for row in found { onServer[key(row)] = row }
        for (position, row) in expected.enumerated() {
            guard let other = onServer.removeValue(forKey: key(row)) else {
                throw mismatch(table, job, table.describe(row, position: position), missing: true)
            }
            try compareRow(table, job: job, row, other, position: position)
        }
        if let extra = onServer.values.min(by: { "\($0)" < "\($1)" }) {
            throw mismatch(table, job, table.describe(extra, position: 0), missing: false)
        }
    }

    /// Compares two rows column by column.
    private static func compareRow(
        _ table: CopyTable, job: String, _ expected: [String?], _ found: [String?], position: Int
    ) throws(LedgerError) {
        let names = table.serverColumns
        for (index, name) in names.enumerated() where expected[index] != found[index] {
            throw LedgerError(
                .copyMismatch,
                "verification failed: table \(table.name), job \(job), "
                    + "\(table.describe(expected, position: position)): column \(name) is \(show(expected[index])) "
                    + "in the SQLite file but \(show(found[index])) on the server")
        }
    }

    /// A row found on one side only.
    private static func mismatch(_ table: CopyTable, _ job: String, _ row: String, missing: Bool) -> LedgerError {
        let side = missing ? "is in the SQLite file but not on the server" : "is on the server only"
        return LedgerError(.copyMismatch, "verification failed: table \(table.name), job \(job), \(row) \(side)")
    }

    /// A value for a message: quoted and cut at 60 characters, or `NULL`.
    private static func show(_ value: String?) -> String {
        guard let value else { return "NULL" }
        return value.count > 60 ? "'\(value.prefix(60))…'" : "'\(value)'"
    }
}
