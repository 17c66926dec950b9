import Foundation

/// Registering jobs and inserting their rows.
extension SQLLedger {
    /// Registers `name`, or confirms it is already registered with the same hashes (idempotent).
    ///
    /// - Parameters:
    ///   - name: the job name, unique in the ledger.
    ///   - manifestHash: SHA-256 of the manifest (lower-case hex).
    ///   - templateHash: SHA-256 of the template (lower-case hex).
    ///   - acceptChangedManifest: replace the stored hashes when they differ (recorded as a
    ///     `manifestAccepted` event) instead of refusing.
    /// - Returns: the job as stored.
    /// - Throws: `.manifestMismatch` when the job exists with other hashes and `acceptChangedManifest` is false.
    @discardableResult
    public func registerJob(
        name: String, manifestHash: String, templateHash: String, acceptChangedManifest: Bool
    ) async throws(LedgerError) -> JobInfo {
        try await write { () throws(LedgerError) -> JobInfo in
            if let existing = try jobInfo(name) {
                guard
                    let change = try Ledger.manifestChange(
                        existing, manifestHash: manifestHash, templateHash: templateHash, accept: acceptChangedManifest)
                else { return existing }
                try acceptManifestChange(
                    name: name, manifestHash: manifestHash, templateHash: templateHash, detail: change)
            } else {
                try insertJob(name: name, manifestHash: manifestHash, templateHash: templateHash)
            }
            guard let job = try jobInfo(name) else { throw LedgerError(.unknownJob, "job \(name) vanished") }
            return job
        }
    }

    /// Inserts job `name` with its hashes (SQLite's `insertJob`).
    func insertJob(name: String, manifestHash: String, templateHash: String) throws(LedgerError) {
        try connection.run(
            "INSERT INTO jobs(name, manifest_sha256, template_sha256, created_at) VALUES (?, ?, ?, ?)",
            [.text(name), .text(manifestHash), .text(templateHash), .text(LedgerFormat.time(Date()))])
    }

    /// Replaces job `name`'s hashes and records the change (SQLite's `acceptManifestChange`).
    func acceptManifestChange(name: String, manifestHash: String, templateHash: String, detail: String)
        throws(LedgerError)
    {
        try connection.run(
            "UPDATE jobs SET manifest_sha256 = ?, template_sha256 = ? WHERE name = ?",
            [.text(manifestHash), .text(templateHash), .text(name)])
        try insertEvent(job: name, row: nil, kind: "manifestAccepted", actor: nil, detail: detail)
    }

    /// Inserts `rows` as `pending`, skipping rows already present (idempotent), `batchSize` per transaction.
    ///
    /// A row already in the ledger is left untouched whatever its state, so re-running a job continues it.
    /// - Returns: the number of rows newly inserted.
    /// - Throws: `.unknownJob`, or an SQLite failure (rows of earlier batches stay inserted).
    @discardableResult
    public func addRows(
        job: String, rows: some Sequence<RowInput> & Sendable, batchSize: Int
    ) async throws(LedgerError) -> Int {
        guard try await perform({ () throws(LedgerError) in try jobInfo(job) }) != nil else {
            throw LedgerError(.unknownJob, "job \(job) is not registered in \(location)")
        }
        var inserted = 0
        var batch: [RowInput] = []
        batch.reserveCapacity(max(1, batchSize))
        for row in rows {
            batch.append(row)
            if batch.count >= max(1, batchSize) {
                inserted += try await insertRows(batch, job: job)
                batch.removeAll(keepingCapacity: true)
            }
        }
        inserted += try await insertRows(batch, job: job)
        return inserted
    }

    /// Inserts one batch in one transaction and refreshes the job's total.
    func insertRows(_ batch: [RowInput], job: String) async throws(LedgerError) -> Int {
        try await write { () throws(LedgerError) -> Int in
            let now = LedgerFormat.time(Date())
            let encoder = LedgerFormat.makeEncoder()
            var inserted = 0
            for row in batch {
                inserted += try connection.run(
                    """
                    INSERT INTO records(job, row, fields_json, message_sha256, message_length, state, created_at)
                    VALUES (?, ?, ?, ?, ?, 'pending', ?) ON CONFLICT (job, row) DO NOTHING
                    """,
                    [
                        .text(job), .int(row.row), .text(try LedgerFormat.json(row.fields, encoder: encoder)),
                        .text(LedgerFormat.digest(row.messageSHA256)), .int(row.messageLength), .text(now),
                    ])
            }
            try connection.run(
                "UPDATE jobs SET total_rows = (SELECT count(*) FROM records WHERE job = ?) WHERE name = ?",
                [.text(job), .text(job)])
            return inserted
        }
    }

    /// Records that a run of `job` started (keeps the first start time).
    public func markStarted(job: String) async throws(LedgerError) {
        try await write { () throws(LedgerError) in
            let changed = try connection.run(
                "UPDATE jobs SET started_at = coalesce(started_at, ?), finished_at = NULL WHERE name = ?",
                [.text(LedgerFormat.time(Date())), .text(job)])
            guard changed == 1 else { throw LedgerError(.unknownJob, "job \(job) is not registered in \(location)") }
        }
    }

    /// Records that a run of `job` finished.
    public func markFinished(job: String) async throws(LedgerError) {
        try await write { () throws(LedgerError) in
            let changed = try connection.run(
                "UPDATE jobs SET finished_at = ? WHERE name = ?", [.text(LedgerFormat.time(Date())), .text(job)])
            guard changed == 1 else { throw LedgerError(.unknownJob, "job \(job) is not registered in \(location)") }
        }
    }

    /// The job named `name`, or `nil`.
    public func job(named name: String) async throws(LedgerError) -> JobInfo? {
        try await perform { () throws(LedgerError) in try jobInfo(name) }
    }

    /// Every job, by name.
    public func jobs() async throws(LedgerError) -> [JobInfo] {
        try await perform { () throws(LedgerError) in
            try connection.query("SELECT \(Ledger.jobColumns) FROM jobs ORDER BY name", []) { s throws(LedgerError) in
                try Ledger.jobInfo(s)
            }
        }
    }

    func jobInfo(_ name: String) throws(LedgerError) -> JobInfo? {
        try connection.queryFirst("SELECT \(Ledger.jobColumns) FROM jobs WHERE name = ?", [.text(name)]) {
            s throws(LedgerError) in try Ledger.jobInfo(s)
        }
    }

}

/// The statements and row decoders both stores share.
extension Ledger {
    /// What registering `existing` again with these hashes changes: `nil` for nothing, else the
    /// `manifestAccepted` event's detail.
    ///
    /// - Throws: `.manifestMismatch` for other hashes unless `accept` (`--accept-changed-manifest`).
    static func manifestChange(_ existing: JobInfo, manifestHash: String, templateHash: String, accept: Bool)
        throws(LedgerError) -> String?
    {
        guard existing.manifestHash != manifestHash || existing.templateHash != templateHash else { return nil }
        guard accept else {
            throw LedgerError(
                .manifestMismatch,
                "job \(existing.name) was registered with manifest \(existing.manifestHash) and template "
                    + "\(existing.templateHash), not \(manifestHash) and \(templateHash): use a new job "
                    + "name, or accept the change explicitly")
        }
        return "manifest \(existing.manifestHash) -> \(manifestHash), "
            + "template \(existing.templateHash) -> \(templateHash)"
    }

    static let jobColumns =
        "name, manifest_sha256, template_sha256, total_rows, created_at, started_at, finished_at, records_sha256"

    static func jobInfo(_ s: some SQLRow) throws(LedgerError) -> JobInfo {
        JobInfo(
            name: s.text("name"), manifestHash: s.text("manifest_sha256"), templateHash: s.text("template_sha256"),
            totalRows: s.int("total_rows"), createdAt: try LedgerFormat.date(s.text("created_at")),
            startedAt: try LedgerFormat.date(s.optionalText("started_at")),
            finishedAt: try LedgerFormat.date(s.optionalText("finished_at")),
            recordsHash: s.optionalText("records_sha256"))
    }
}
