import Foundation

/// The job record on a ledger server, written through the functions of schema 5 (`PostgresJobFunctions`): a station
/// registers a job, adds its rows and marks it started and finished; any other change is the supervisor's, and
/// the server's refusal of it to another login comes back as `.roleRequired` (exit 77), with nothing written.
extension PostgresLedger {
    /// Registers job `name` through `provision_register_job` (`SQLLedger.registerJob`'s store step).
    func insertJob(name: String, manifestHash: String, templateHash: String) throws(LedgerError) {
        try connection.run(
            "SELECT provision_register_job(?, ?, ?)", [.text(name), .text(manifestHash), .text(templateHash)])
    }

    /// Replaces job `name`'s hashes with its event through `provision_change_job`: the supervisor's.
    func acceptManifestChange(name: String, manifestHash: String, templateHash: String, detail: String)
        throws(LedgerError)
    {
        try changeJob(name, manifest: manifestHash, template: templateHash, event: "manifestAccepted", detail)
    }

    /// One batch of rows through `provision_add_rows`: a station's until the job starts, then the supervisor's.
    func insertRows(_ batch: [RowInput], job: String) async throws(LedgerError) -> Int {
        let encoder = LedgerFormat.makeEncoder()
        var rows: [PostgresRowInput] = []
        rows.reserveCapacity(batch.count)
        for row in batch {
            rows.append(
                PostgresRowInput(
                    row: row.row, fieldsJSON: try LedgerFormat.json(row.fields, encoder: encoder),
                    messageSHA256: LedgerFormat.digest(row.messageSHA256), messageLength: row.messageLength))
        }
        let json: String
        do { json = String(decoding: try encoder.encode(rows), as: UTF8.self) } catch {
            throw LedgerError(.invalidData, "rows of job \(job) cannot be encoded: \(error)")
        }
        let added = try await write { () throws(LedgerError) -> Int? in
            try supervisorsPart { () throws(LedgerError) in
                try connection.queryFirst("SELECT provision_add_rows(?, ?::jsonb) AS added", [.text(job), .text(json)])
                {
                    $0.int("added")
                }
            }
        }
        guard let added, added >= 0 else {
            throw LedgerError(.unknownJob, "job \(job) is not registered in \(location)")
        }
        return added
    }

    /// Records that a run of `job` started (the server's clock; keeps the first start).
    public func markStarted(job: String) async throws(LedgerError) { try await mark(job, finished: false) }

    /// Records that a run of `job` finished (the server's clock); a station may only once every row is done.
    public func markFinished(job: String) async throws(LedgerError) { try await mark(job, finished: true) }

    /// Stores the records file's hash: a station's at the job's first start, any change the supervisor's.
    public func setRecordsHash(job: String, hash: String, event: String?, detail: String?) async throws(LedgerError) {
        try await write { () throws(LedgerError) in
            try changeJob(job, records: hash, event: event, detail)
        }
    }

    private func mark(_ job: String, finished: Bool) async throws(LedgerError) {
        let changed = try await write { () throws(LedgerError) -> Int? in
            try supervisorsPart { () throws(LedgerError) in
                try connection.queryFirst(
                    "SELECT provision_mark_job(?, ?::boolean) AS changed", [.text(job), .text(finished ? "t" : "f")]
                ) { $0.int("changed") }
            }
        }
        guard changed == 1 else { throw LedgerError(.unknownJob, "job \(job) is not registered in \(location)") }
    }

    /// `provision_change_job` in the caller's transaction.
    private func changeJob(
        _ job: String, manifest: String? = nil, template: String? = nil, records: String? = nil, event: String?,
        _ detail: String?
    ) throws(LedgerError) {
        let changed = try supervisorsPart { () throws(LedgerError) in
            try connection.queryFirst(
                "SELECT provision_change_job(?, ?, ?, ?, ?, ?) AS changed",
                [.string(job), .string(manifest), .string(template), .string(records), .string(event), .string(detail)]
            ) { $0.int("changed") }
        }
        guard changed == 1 else { throw LedgerError(.unknownJob, "job \(job) is not registered in \(location)") }
    }

    /// Runs `body`, one call of a job-record function; its refusal (SQLSTATE 42501, naming the role) is
    /// `.roleRequired`.
    private func supervisorsPart<T>(_ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        do { return try body() } catch  where error.code == .readOnly {
            throw LedgerError(.roleRequired, error.message, sql: error.sql)
        }
    }
}

/// A row as `provision_add_rows` reads it (`jsonb_to_recordset`).
private struct PostgresRowInput: Encodable {
    let row: Int
    let fieldsJSON: String
    let messageSHA256: String
    let messageLength: Int

    enum CodingKeys: String, CodingKey {
        case row
        case fieldsJSON = "fields_json"
        case messageSHA256 = "message_sha256"
        case messageLength = "message_length"
    }
}
