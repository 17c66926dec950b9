import Foundation
import Ledger
import NDEF
import Provisioning

/// Registering a job's rows in the ledger, and what happens when its files changed since it started.
extension RunCommand {
    /// What the operator allows to differ from the job as it started.
    struct ChangePolicy: Sendable {
        /// `--accept-changed-manifest`: a changed manifest, template or records file is recorded and used.
        var acceptChanged = false
        /// `--accept-new-rows`: rows appended to the records file are added (the rest must be unchanged).
        var acceptNewRows = false
    }

    /// Registers the job and adds its rows (idempotent); a records file that changed since the job
    /// started is refused like a changed manifest, unless `policy` accepts it. A dropped connection to a
    /// ledger server pauses the registration and runs it again (`outage`).
    static func register(
        _ job: JobContext, in ledger: any LedgerStore, policy: ChangePolicy, outage: OutageRetry
    ) async throws(CLIError) {
        do {
            try await outage.run("start-up", on: ledger) { try await registerOnce(job, in: ledger, policy: policy) }
        } catch let error as LedgerError where error.code == .manifestMismatch {
            throw ErrorTable.cliError(
                error, message: "\(error.message); to continue anyway use --accept-changed-manifest")
        } catch let error as LedgerError {
            throw JobContext.cliError(error)
        } catch let error as JobInputError {
            throw ErrorTable.cliError(error, message: error.description)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(.ioError, "\(error)")
        }
    }

    /// One registration: on a server, under the job's registration lock, so stations that start together
    /// register the job one after the other. Safe to repeat after a dropped connection: the lock went with the
    /// session, and every step is idempotent (`registerJob`).
    private static func registerOnce(_ job: JobContext, in ledger: any LedgerStore, policy: ChangePolicy) async throws {
        guard let server = ledger as? PostgresLedger else {
            return try await registerJob(job, in: ledger, policy: policy)
        }
        try await server.lockRegistration(job: job.manifest.job)
        do {
            try await registerJob(job, in: ledger, policy: policy)
            try? await server.unlockRegistration(job: job.manifest.job)
        } catch {
            try? await server.unlockRegistration(job: job.manifest.job)
            throw error
        }
    }

    /// Registers the job, adds its rows and marks it started, each step idempotent. The start is marked last:
    /// a job whose first registration was cut short (a crash, a dropped connection) has no start yet, and the
    /// next registration adds whatever rows are missing before it stores the records' hash.
    private static func registerJob(_ job: JobContext, in ledger: any LedgerStore, policy: ChangePolicy) async throws {
        let name = job.manifest.job
        let recordsHash = try job.recordsSHA256()
        let info = try await ledger.registerJob(
            name: name, manifestHash: job.manifestSHA256, templateHash: job.templateSHA256,
            acceptChangedManifest: policy.acceptChanged)
        try await ledger.setPublicFields(job: name, fields: job.manifest.publicFields.map(\.name))
        try await registerRows(job, info: info, recordsHash: recordsHash, in: ledger, policy: policy)
        try await ledger.markStarted(job: name)
    }

    /// Adds the rows of a job never started; for a started job, checks the records file against the hash
    /// stored at its start and applies `policy` to a change.
    private static func registerRows(
        _ job: JobContext, info: JobInfo, recordsHash: String?, in ledger: any LedgerStore, policy: ChangePolicy
    ) async throws {
        let name = job.manifest.job
        if info.totalRows == 0 || info.startedAt == nil {
            try await addRows(job, in: ledger, after: 0)
            if let recordsHash { try await ledger.setRecordsHash(job: name, hash: recordsHash) }
            return
        }
        guard let recordsHash, info.recordsHash != recordsHash else { return }
        guard let previous = info.recordsHash else {
            // A ledger from before schema 5 never stored the hash: take the file as it is now.
            try await ledger.setRecordsHash(job: name, hash: recordsHash)
            return
        }
        let change =
            "records \(job.manifest.displayPath(job.recordsURL ?? job.manifest.manifestURL)) "
            + "sha256 \(previous) -> \(recordsHash)"
        if policy.acceptNewRows {
            let added = try await appendNewRows(job, in: ledger)
            try await ledger.setRecordsHash(
                job: name, hash: recordsHash, event: "rowsAppended", detail: "\(added) row(s) appended; \(change)")
        } else if policy.acceptChanged {
            try await ledger.setRecordsHash(job: name, hash: recordsHash, event: "recordsAccepted", detail: change)
        } else {
            throw CLIError.data(
                "the records file changed since job \(name) started (\(change)). Rows appended at the end can "
                    + "be added with --accept-new-rows; any other change needs a new job name, or "
                    + "--accept-changed-manifest (recorded; rows already registered keep their registered fields)")
        }
    }

    /// Adds the rows after the first `registered` ones; returns how many were added.
    @discardableResult
    private static func addRows(_ job: JobContext, in ledger: any LedgerStore, after registered: Int) async throws
        -> Int
    {
        var batch: [RowInput] = []
        var added = 0
        for result in try job.manifest.rows() {
            let row = try result.get()
            guard row.row > registered else { continue }
            let bytes = try job.template.render(row: row, late: nil).bytes
            batch.append(RowInput(row: row.row, fields: row.fields, messageSHA256: [], messageLength: bytes.count))
            if batch.count == 5_000 {
                added += try await ledger.addRows(job: job.manifest.job, rows: batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        return added + (try await ledger.addRows(job: job.manifest.job, rows: batch))
    }

    /// `--accept-new-rows`: every registered row must read the same in the records file; the rows after
    /// them are added. A row changed, removed or reordered is refused, naming it.
    private static func appendNewRows(_ job: JobContext, in ledger: any LedgerStore) async throws -> Int {
        let registered = try await ledger.registeredFields(job: job.manifest.job)
        var seen = 0
        for result in try job.manifest.rows() {
            let row = try result.get()
            guard let stored = registered[row.row] else { continue }
            seen += 1
            guard stored == row.fields else {
                let file = job.manifest.displayPath(job.recordsURL ?? job.manifest.manifestURL)
                throw CLIError.data(
                    "\(file):\(row.line): row \(row.row) differs from the row registered when the job started; "
                        + "--accept-new-rows adds rows appended at the end only")
            }
        }
        guard seen == registered.count else {
            throw CLIError.data(
                "the records file has \(seen) of the \(registered.count) rows registered when the job started; "
                    + "--accept-new-rows adds rows appended at the end only")
        }
        return try await addRows(job, in: ledger, after: registered.keys.max() ?? 0)
    }
}
