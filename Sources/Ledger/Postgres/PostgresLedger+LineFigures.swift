import Foundation

/// The line figures on a ledger server: one call of `provision_line_figures` (`PostgresAggregateFunctions`), which
/// reads `attempts` as the ledger's owner, so a verifier's login gets them too. Replaces `SQLLedger.lineFigures`.
extension PostgresLedger {
    /// The line figures of `job` (`SQLLedger.lineFigures`), tags done since `recentSince` counted apart.
    public func lineFigures(job: String, recentSince: Date) async throws(LedgerError) -> LineFigures {
        try await perform { () throws(LedgerError) -> LineFigures in
            Ledger.lineFigures(
                try connection.query(
                    "SELECT * FROM provision_line_figures(?, ?)", [.text(job), .text(LedgerFormat.time(recentSince))]
                ) { s throws(LedgerError) in try Ledger.lineFiguresRow(s) })
        }
    }
}
