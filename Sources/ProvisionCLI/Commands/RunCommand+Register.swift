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
    /// started is refused like a changed manifest, unless `policy` accepts it.
    static func register(_ job: JobContext, in ledger: any LedgerStore, policy: ChangePolicy) async throws(CLIError) {
        // Stations that start together on a server register the job one after the other.
        guard let server = ledger as? PostgresLedger else {
            return try await registerJob(job, in: ledger, policy: policy)
        }
        do {
            try await server.lockRegistration(job: job.manifest.job)
        } catch {
            throw JobContext.cliError(error)
        }
        do {
            try await registerJob(job, in: ledger, policy: policy)
            try? await server.unlockRegistration(job: job.manifest.job)
        } catch {
            try? await server.unlockRegistration(job: job.manifest.job)
            throw error
        }
    }

    private static func registerJob(
        _ job: JobContext, in ledger: any LedgerStore, policy: ChangePolicy
    ) async throws(CLIError) {
        let name = job.manifest.job
        do {
            let recordsHash = try job.recordsSHA256()
            let info = try await ledger.registerJob(
                name: name, manifestHash: job.manifestSHA256, templateHash: job.templateSHA256,
                acceptChangedManifest: policy.acceptChanged)
            try await ledger.markStarted(job: name)
            if info.totalRows == 0 {
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
        } catch let error as CLIError {
            throw error
        } catch let error as LedgerError {
            if error.code == .manifestMismatch {
                throw CLIError(.dataError, "\(error.message); to continue anyway use --accept-changed-manifest")
            }
            throw JobContext.cliError(error)
        } catch let error as JobInputError {
            throw CLIError(.dataError, error.description)
        } catch {
            throw CLIError(.ioError, "\(error)")
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
