import Foundation

/// The outbox on a ledger server (docs/events.md): what goes through the server's functions (`PostgresOutbox`).
extension PostgresLedger {
    /// Records the job's public field names through `provision_set_public_fields` (`SQLLedger.setPublicFields`):
    /// a station's while the job has none or the same, a change the supervisor's (`.roleRequired` otherwise).
    public func setPublicFields(job: String, fields: [String]) async throws(LedgerError) {
        let json = try Ledger.publicFieldsJSON(fields)
        let found = try await perform { () throws(LedgerError) -> Bool in
            do throws(LedgerError) {
                return try connection.queryFirst(
                    "SELECT provision_set_public_fields(?, ?)::text AS found", [.text(job), .string(json)]
                ) { $0.text("found") == "true" } ?? false
            } catch  where error.code == .readOnly {
                throw LedgerError(.roleRequired, error.message, sql: error.sql)
            }
        }
        guard found else { throw LedgerError(.unknownJob, "job \(job) is not registered in \(location)") }
    }
}
