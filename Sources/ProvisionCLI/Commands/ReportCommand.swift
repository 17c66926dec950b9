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

        Examples:
          provision report jobs/batch.json
          provision report --ledger reports/batch/ledger.sqlite --job batch --out /tmp/batch-report

        """

    static func run(_ arguments: [String], context: CommandContext) async throws -> ExitCode {
        let args = try Arguments(arguments, flags: ["json"], options: ["ledger", "job", "out"])
        try args.requirePositionals(0...1, usage: "provision report MANIFEST | --ledger FILE --job NAME")
        let ledgerURL: URL
        let jobName: String
        var folder: URL
        var serial: @Sendable (Int) -> String = { _ in "" }
        if let path = args.positionals.first {
            let job = try JobContext.load(path, context: context)
            ledgerURL = job.manifest.ledgerURL
            jobName = job.manifest.job
            folder = job.manifest.reportsURL
            serial = { job.serial(row: $0) }
        } else {
            guard let ledger = args.value("ledger"), let job = args.value("job") else {
                throw CLIError.usage("give a MANIFEST, or --ledger FILE and --job NAME")
            }
            ledgerURL = context.url(forPath: ledger)
            jobName = job
            folder = ledgerURL.deletingLastPathComponent()
        }
        if let out = args.value("out") { folder = context.url(forPath: out) }
        let ledger = try await JobContext.openLedger(at: ledgerURL, create: false, readOnly: true, notes: context.err)
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
        if args.flag("json") {
            context.out.write(RunReportWriter.json(report, RunFigures(report)))
        } else {
            context.out.write(RunSummaryText.render(report, reportsFolder: folder.path))
        }
        return .success
    }
}
