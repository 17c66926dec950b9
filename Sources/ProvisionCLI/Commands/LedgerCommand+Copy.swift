import Foundation
import Ledger
import Reports

/// `provision ledger copy`: moves jobs from a SQLite ledger to a migrated PostgreSQL ledger, then proves the copy
/// row by row (issue 26, "Moving up"; docs/ledger.md, "Moving up from SQLite").
extension LedgerCommand {
    /// The `--json` result document of `copy` (docs/json.md, version 2).
    struct CopyDocument: Encodable, Sendable {
        var version = JSONDocument.version
        /// What each job moved: `job`, `rows`, `attempts`, `events`, `keyChanges`, `sunCounters`, `counters`.
        var jobs: [CopyCounts]
        /// Always `true`: a copy that does not verify is an error, not a result.
        var verified = true
    }

    /// Copies every job of `from` (or `job`) to `to`, one server transaction a job, and verifies each.
    ///
    /// - Throws: `CLIError` 64 for a `--from` that is not a file, 65 for a refused copy, 74 for a copy that
    ///   does not verify; the opens' errors as every ledger command reports them (69 no server, 73 schema).
    func copy(from: String, to: PostgresConnInfo, job: String?, context: CommandContext) async throws -> ExitCode {
        let url = context.url(forPath: from).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
        else {
            throw CLIError.usage("--from \(from) is not a SQLite ledger file", option: "from")
        }
        let source = try await JobContext.openLedger(at: url, create: false, readOnly: true, notes: context.err)
        let opened = try await JobContext.openLedger(
            .server(to), create: false, station: "ledger-copy", notes: context.err,
            tls: LedgerTLS(allowInsecure: insecureLedger))
        guard let destination = opened as? PostgresLedger else {
            throw CLIError(.software, "ledger \(to.redacted) did not open as a PostgreSQL ledger")
        }
        var copied: [CopyCounts] = []
        var unverified: String?
        do {
            let jobs = if let job { [job] } else { try await source.jobs().map(\.name) }
            guard !jobs.isEmpty else { throw CLIError.data("ledger \(url.path) has no job to copy") }
            try await LedgerCopy.check(jobs: jobs, from: source, to: destination)
            for name in jobs {
                let claimed = try await source.counts(job: name).claimed
                let counts = try await LedgerCopy.copy(job: name, from: source, to: destination)
                unverified = name
                let verified = try await LedgerCopy.verify(job: name, from: source, to: destination)
                guard verified == counts else {
                    throw LedgerError(
                        .copyMismatch,
                        "job \(name) copied \(counts) but \(verified) verified: the file changed meanwhile")
                }
                if claimed > 0 {
                    context.err.line(
                        "note: job \(name) has \(claimed) claimed row\(claimed == 1 ? "" : "s"), copied still claimed "
                            + "by their UIDs: present those tags at a station of the server to finish them (or "
                            + "release the rows)")
                }
                copied.append(verified)
                unverified = nil
            }
        } catch let error as LedgerError {
            throw Self.copyError(error, copied: copied.map(\.job), unverified: unverified, to: to)
        }
        if json {
            try context.output.document(CopyDocument(jobs: copied))
        } else {
            for counts in copied {
                context.output.line(
                    "job \(counts.job): \(counts.rows) rows, \(counts.attempts) attempts, \(counts.events) events, "
                        + "\(counts.keyChanges) key changes, \(counts.sunCounters) SUN counters, \(counts.counters) "
                        + "seen counters")
            }
            let total = { (value: KeyPath<CopyCounts, Int>) in copied.map { $0[keyPath: value] }.reduce(0, +) }
            context.output.line(
                "copied \(copied.count) job\(copied.count == 1 ? "" : "s") (\(total(\.rows)) rows, "
                    + "\(total(\.attempts)) attempts, \(total(\.events)) events) from \(url.path) to \(to.redacted), "
                    + "verified row by row")
        }
        return .success
    }

    /// A copy's ledger error as the CLI reports it: a refusal is a data error (65), a copy that does not verify
    /// an I/O error (74); other codes as every ledger command reports them. Names the jobs already copied, and
    /// a job committed but not verified.
    private static func copyError(_ error: LedgerError, copied: [String], unverified: String?, to: PostgresConnInfo)
        -> CLIError
    {
        var before =
            copied.isEmpty
            ? "" : " (already copied and verified: \(copied.joined(separator: ", ")); they stay on the server)"
        if let unverified {
            before += "; job \(unverified) was copied to the server but did not verify: keep stations off it"
        }
        switch error.code {
        case .jobExists, .alreadyProvisioned, .unknownJob:
            return CLIError(.dataError, error.message + before, errorClass: "ledgerCopyRefused")
        case .copyMismatch:
            return CLIError(.ioError, error.message + before, errorClass: "ledgerCopyMismatch")
        case .cannotOpen:
            return ErrorTable.cliError(LedgerServerUnreachable(error.message + before, server: to.redacted))
        default:
            var failure = JobContext.cliError(error)
            failure.message += before
            return failure
        }
    }
}
