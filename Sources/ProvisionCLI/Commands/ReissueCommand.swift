import Foundation
import Ledger
import Provisioning

/// `provision reissue`: a done row whose tag was destroyed gets a new row with the same fields.
struct ReissueCommand: Command {
    static let name = "reissue"
    static let summary = "issue a done row again for a destroyed tag: a new linked row (recorded)"
    static let usage = "provision reissue MANIFEST --row N --reason TEXT [--by NAME]"
    static let help = """
        Usage: \(usage)

        A done row stays final: its tag is recorded, so audit and verify-url still know it. When that
        tag was destroyed after it was programmed (crushed in packing, scrapped at QA), reissue the row:
        a new pending row is appended with the same fields, linked to the original (records.reissue_of),
        and the next tag presented gets it and is programmed with the same message (the original row's
        serial and fields; its own UID). The reissue is recorded in the ledger's events with who did it
        (--by, default $USER) and why (--reason, required), and the reports list it.

        Options:
        \(LedgerTLS.help)

        Exit: 0 reissued, 64 usage, 65 the row is not done (use provision release for a claimed,
        failed or burned row) or does not exist, 66 no manifest or ledger.

        Example: provision reissue jobs/batch.json --row 17 --reason "crushed in the packing line" --by alice

        """

    /// The manifest of the job.
    var manifest: String
    /// `--row N`: the done row to issue again.
    var row: Int
    /// `--reason TEXT` (required, recorded).
    var reason: String
    /// `--by NAME` (default `$USER`).
    var by: String?
    /// `--ledger FILE|URI`: instead of the manifest's.
    var ledger: String?

    /// `--insecure-ledger`: a ledger server over TCP without a verified certificate (`LedgerTLS`).
    var insecureLedger = false

    static func parse(_ arguments: [String]) throws(CLIError) -> ReissueCommand {
        let args = try Arguments(arguments, flags: [LedgerTLS.flag], options: ["row", "reason", "by", "ledger"])
        try args.requirePositionals(1...1, usage: usage)
        guard let row = try args.integer("row", in: 1...Int.max) else {
            throw CLIError.usage("missing --row N", option: "row")
        }
        guard let reason = args.value("reason"), !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw CLIError.usage(
                "missing --reason TEXT: say why the row is issued again (it is recorded)", option: "reason")
        }
        return ReissueCommand(
            manifest: args.positionals[0], row: row, reason: reason, by: args.value("by"), ledger: args.value("ledger"),
            insecureLedger: args.flag(LedgerTLS.flag))
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let job = try JobContext.load(manifest, context: context, ledger: ledger)
        let by = self.by ?? context.environment["USER"] ?? "operator"
        let ledger = try await JobContext.openLedger(
            job.manifest.ledger, create: false, station: "reissue", notes: context.output.diagnostics,
            tls: LedgerTLS(allowInsecure: insecureLedger, job: job.manifest.job))
        let new: Int
        do {
            new = try await ledger.reissue(job: job.manifest.job, row: row, by: by, reason: reason)
        } catch {
            throw JobContext.cliError(error)
        }
        context.output.line(
            "row \(row) of job \(job.manifest.job) reissued as row \(new) by \(by); the next tag presented gets it")
        return .success
    }
}
