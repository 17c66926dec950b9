import Foundation
import Ledger
import Provisioning
import Reports

/// `provision report`: regenerates a job's reports from its ledger at any time.
struct ReportCommand: Command {
    static let name = "report"
    static let summary = "regenerate a job's reports from its ledger"
    static let help = """
        Usage: provision report MANIFEST [--out DIR] [--watch SECONDS [--times N]] [--json]
               provision report --ledger FILE|URI --job NAME [--out DIR] [--watch SECONDS [--times N]] [--json]

        Reads the ledger only (read-only) and rewrites summary.md, summary.json, tags.csv,
        failures.csv and report.html in the job's reports folder (or --out DIR). The same ledger
        always gives the same files. Prints the summary table (or summary.json with --json).

        With --watch it rewrites the files every SECONDS beside a running line, for a supervisor's
        browser: report.html reloads itself at the same interval, and its throughput chart has one
        series per reader. On a line of two or more stations (--station) the chart has one series
        per station instead, and a stations table gives each station's tags done, failed attempts,
        yield, tags/h and last failure (summary.json: "stations"). Each file is replaced whole
        (written aside, then renamed), so a browser never reads half a page. It stops at Ctrl-C
        (exit 130) or after --times N rewrites.

        Options:
          --ledger FILE|URI  the ledger to read, with --job NAME (instead of MANIFEST)
        \(LedgerTLS.help)
          --job NAME     the job in that ledger
          --out DIR      write the reports here instead of the job's reports folder
          --watch SECONDS  rewrite the reports every SECONDS until Ctrl-C (prints one line a rewrite)
          --times N      with --watch: stop after N rewrites (for scripts)
          --json         print summary.json (version 1, docs/json.md) instead of the table; a
                         missing ledger or another error prints {"error": {...}} instead

        Exit codes: 0 ok, 64 usage, 65 bad manifest, 66 missing manifest or ledger, 73 cannot write
        the reports, 74 I/O error.

        Examples:
          provision report jobs/batch.json
          provision report --ledger reports/batch/ledger.sqlite --job batch --out /tmp/batch-report
          provision report jobs/batch.json --watch 10

        """

    /// The job whose ledger is read.
    var target: JobTarget
    /// `--out DIR`: another reports folder.
    var out: String?
    /// `--json`: print summary.json instead of the table.
    var json = false
    /// `--watch SECONDS`: rewrite the reports every so often.
    var watch: Double?
    /// `--times N`: rewrites before a watch ends.
    var times: Int?

    /// `--insecure-ledger`: a ledger server over TCP without a verified certificate (`LedgerTLS`).
    var insecureLedger = false

    static func parse(_ arguments: [String]) throws(CLIError) -> ReportCommand {
        let args = try Arguments(
            arguments, flags: ["json", LedgerTLS.flag], options: ["ledger", "job", "out", "watch", "times"])
        try args.requirePositionals(0...1, usage: "provision report MANIFEST | --ledger FILE|URI --job NAME")
        let watch = try args.seconds("watch") { "option '--watch' needs seconds > 0, got '\($0)'" }
        let times = try args.integer("times", in: 1...Int.max)
        if args.flag("json"), watch != nil {
            throw .usage("--json prints one document; it cannot --watch", option: "watch")
        }
        if times != nil, watch == nil { throw .usage("--times counts the rewrites of --watch", option: "times") }
        return ReportCommand(
            target: try JobTarget(args), out: args.value("out"), json: args.flag("json"), watch: watch, times: times,
            insecureLedger: args.flag(LedgerTLS.flag))
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let (job, location, jobName) = try target.resolve(context: context)
        // Without a manifest: beside a ledger file, or reports/<job>/ for a ledger on a server.
        var folder =
            job?.manifest.reportsURL ?? location.fileURL?.deletingLastPathComponent()
            ?? context.currentDirectory.appendingPathComponent("reports").appendingPathComponent(jobName)
        var serial: @Sendable (Int) -> String = { _ in "" }
        if let job { serial = { job.serial(row: $0) } }
        if let out { folder = context.url(forPath: out) }
        let ledger = try await JobContext.openLedger(
            location, create: false, readOnly: true, station: "report", notes: context.output.diagnostics,
            tls: LedgerTLS(allowInsecure: insecureLedger, job: jobName))
        guard let watch else {
            let report = try await write(ledger: ledger, job: jobName, serial: serial, to: folder, refresh: nil)
            if json {
                context.output.document(json: RunReportWriter.json(report, RunFigures(report)))
            } else {
                context.output.write(RunSummaryText.render(report, reportsFolder: context.displayPath(folder)))
            }
            return .success
        }
        var written = 0
        while true {
            let report = try await write(ledger: ledger, job: jobName, serial: serial, to: folder, refresh: watch)
            written += 1
            let counts = report.rows
            context.output.write(
                "\(RunReportWriter.timestamp(Date())) rewrote "
                    + "\(context.displayPath(folder.appendingPathComponent("report.html"))): \(counts.done) done, "
                    + "\(counts.failed + counts.burned) failed, \(counts.pending + counts.claimed) open\n")
            guard written < (times ?? Int.max) else { return .success }
            try await Task.sleep(for: .milliseconds(Int(watch * 1000)))
        }
    }

    /// Builds the job's report from the ledger and writes its files; `refresh` makes the page reload itself.
    private func write(
        ledger: any LedgerStore, job: String, serial: @escaping @Sendable (Int) -> String, to folder: URL,
        refresh: Double?
    ) async throws -> RunReport {
        let report: RunReport
        do {
            report = try await RunReportBuilder.build(ledger: ledger, job: job, serial: serial)
        } catch {
            throw JobContext.cliError(error)
        }
        do {
            try RunReportWriter.write(report, to: folder, refreshSeconds: refresh)
        } catch {
            throw JobContext.reportsError(error, folder: folder)
        }
        return report
    }
}
