import Foundation
import Ledger
import Provisioning
import Reports

/// `provision release`: the operator hands a claimed (or failed/burned) row back to the job.
struct ReleaseCommand: Command {
    static let name = "release"
    static let summary = "give a claimed, failed or burned row back to the job (recorded)"
    static let help = """
        Usage: provision release MANIFEST --row N [--by NAME] [--note TEXT] [--json]
               provision release --ledger FILE|URI --job NAME --row N [--by NAME] [--note TEXT] [--json]

        A row claimed by a tag that never came back stays with that tag's UID so a partial write is
        never issued twice. When the tag is lost for good (destroyed, scrapped), release the row: it
        goes back to pending and the next tag gets it. The release is recorded in the ledger's
        events with who did it (--by, default $USER) and why (--note). Done rows cannot be released.

        Options:
          --row N        the row to release (required)
          --by NAME      who releases it (default $USER)
          --note TEXT    why (recorded)
          --ledger FILE|URI  the ledger, with --job NAME (instead of MANIFEST)
        \(LedgerTLS.help)
          --json         print {"version": 2, "job", "row", "by", "note", "state": "pending"}
                         (docs/json.md); an error prints {"error": {...}} instead

        Exit codes: 0 released, 64 usage, 65 the row cannot be released (done, unknown), 66 missing
        manifest or ledger, 69 the ledger is locked.

        Example: provision release jobs/batch.json --row 17 --by alice --note "tag crushed in feeder"

        """

    /// The job whose row is released.
    var target: JobTarget
    /// `--row N`.
    var row: Int
    /// `--by NAME` (default `$USER`).
    var by: String?
    /// `--note TEXT`.
    var note: String?
    /// `--json`: print the result document instead of the line.
    var json = false

    /// The `--json` result document (docs/json.md, version 2).
    struct Document: Encodable, Sendable {
        var version = JSONDocument.version
        var job: String
        var row: Int
        var by: String
        var note: String?
        /// Always `pending`: the state the row is in now.
        var state = "pending"
    }

    /// `--insecure-ledger`: a ledger server over TCP without a verified certificate (`LedgerTLS`).
    var insecureLedger = false

    static func parse(_ arguments: [String]) throws(CLIError) -> ReleaseCommand {
        let args = try Arguments(
            arguments, flags: ["json", LedgerTLS.flag], options: ["ledger", "job", "row", "by", "note"])
        try args.requirePositionals(0...1, usage: "provision release MANIFEST --row N")
        guard let row = try args.integer("row", in: 1...Int.max) else {
            throw CLIError.usage("missing --row N", option: "row")
        }
        return ReleaseCommand(
            target: try JobTarget(args), row: row, by: args.value("by"), note: args.value("note"),
            json: args.flag("json"), insecureLedger: args.flag(LedgerTLS.flag))
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let (_, location, jobName) = try target.resolve(context: context)
        let by = self.by ?? context.environment["USER"] ?? "operator"
        let ledger = try await JobContext.openLedger(
            location, create: false, station: "release", notes: context.output.diagnostics,
            tls: LedgerTLS(allowInsecure: insecureLedger, job: jobName))
        do {
            try await ledger.release(job: jobName, row: row, by: by, note: note)
        } catch {
            throw JobContext.cliError(error)
        }
        if json {
            try context.output.document(Document(job: jobName, row: row, by: by, note: note))
        } else {
            context.output.line("row \(row) of job \(jobName) released by \(by); it is pending again")
        }
        return .success
    }
}
