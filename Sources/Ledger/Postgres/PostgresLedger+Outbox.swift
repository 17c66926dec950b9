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

    /// Marks the events `ids` published at `at` through `provision_mark_published` (`PostgresPublisher`), so the
    /// owner and a publisher's login run the same statement; events already published keep their first time.
    /// Committed `.deferred` (`synchronous_commit = off`): a mark lost to a server crash only sends its event again.
    ///
    /// - Returns: how many events this call marked.
    /// - Throws: `.roleRequired` for a login that is neither the owner nor a publisher.
    @discardableResult
    public func markPublished(ids: [String], at: Date) async throws(LedgerError) -> Int {
        guard !ids.isEmpty else { return 0 }
        let json: String
        do { json = String(decoding: try LedgerFormat.makeEncoder().encode(ids), as: UTF8.self) } catch {
            throw LedgerError(.invalidData, "event ids cannot be encoded: \(error)")
        }
        return try await write(durability: .deferred) { () throws(LedgerError) -> Int in
            do throws(LedgerError) {
                return try connection.queryFirst(
                    "SELECT provision_mark_published(ARRAY(SELECT jsonb_array_elements_text(?::jsonb)), ?) AS marked",
                    [.text(json), .text(LedgerFormat.time(at))]
                ) { $0.int("marked") } ?? 0
            } catch  where error.code == .readOnly {
                throw LedgerError(.roleRequired, error.message, sql: error.sql)
            }
        }
    }
}
