import Foundation
import Ledger
import Provisioning
import Reports

/// `provision report`: regenerates a job's reports from its ledger at any time.
struct ReportCommand: Command {
    static let name = "report"
    static let summary = "regenerate a job's reports from its ledger"
    static let help = """
        Usage: provision report MANIFEST [--json]
               provision report --ledger FILE --job NAME [--out DIR] [--json]

        Reads the ledger only (read-only) and rewrites summary.md, summary.json, tags.csv,
        failures.csv and report.html in the job's reports folder (or --out DIR). The same ledger
        always gives the same files. Prints the summary table (or summary.json with --json).

        Options:
          --ledger FILE  the ledger to read, with --job NAME (instead of MANIFEST)
          --job NAME     the job in that ledger
          --out DIR      write the reports here instead of the job's reports folder
          --json         print summary.json (version 1, docs/json.md) instead of the table; a
                         missing ledger or another error prints {"error": {...}} instead

        Exit codes: 0 ok, 64 usage, 65 bad manifest, 66 missing manifest or ledger, 73 cannot write
        the reports, 74 I/O error.

        Examples:
          provision report jobs/batch.json
          provision report --ledger reports/batch/ledger.sqlite --job batch --out /tmp/batch-report

        """

    /// The job whose ledger is read.
    var target: JobTarget
    /// `--out DIR`: another reports folder.
    var out: String?
    /// `--json`: print summary.json instead of the table.
    var json = false

    static func parse(_ arguments: [String]) throws(CLIError) -> ReportCommand {
        let args = try Arguments(arguments, flags: ["json"], options: ["ledger", "job", "out"])
        try args.requirePositionals(0...1, usage: "provision report MANIFEST | --ledger FILE --job NAME")
        return ReportCommand(target: try JobTarget(args), out: args.value("out"), json: args.flag("json"))
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let (job, ledgerURL, jobName) = try target.resolve(context: context)
        var folder = job?.manifest.reportsURL ?? ledgerURL.deletingLastPathComponent()
        var serial: @Sendable (Int) -> String = { _ in "" }
        if let job { serial = { job.serial(row: $0) } }
        if let out { folder = context.url(forPath: out) }
        let ledger = try await JobContext.openLedger(
            at: ledgerURL, create: false, readOnly: true, notes: context.output.diagnostics)
        let report: RunReport
        do {
            report = try await RunReportBuilder.build(ledger: ledger, job: jobName, serial: serial)
        } catch {
            throw JobContext.cliError(error)
        }
        do {
            try RunReportWriter.write(report, to: folder)
        } catch {
            throw JobContext.reportsError(error, folder: folder)
        }
        if json {
            context.output.document(json: RunReportWriter.json(report, RunFigures(report)))
        } else {
            context.output.write(RunSummaryText.render(report, reportsFolder: folder.path))
        }
        return .success
    }
}
