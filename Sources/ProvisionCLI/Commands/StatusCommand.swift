import Foundation
import Ledger
import Reports

/// `provision status MANIFEST`: the live view of a job's line, read from its ledger beside a running `run`.
struct StatusCommand: Command {
    static let name = "status"
    static let summary = "show a job's line: rows by state, each station's reader, rate, yield, last failure, ETA"
    static let help = """
        Usage: provision status MANIFEST [--watch SECONDS [--times N]] [--json]
               provision status --ledger FILE|URI --job NAME [--watch SECONDS [--times N]] [--json]

        Reads the job's ledger (read-only; it may be written by 'run' processes at the same time) and
        shows:
          - the rows by state (done, failed, burned, claimed: held by a tag that has not come back, pending);
          - every reader that attempted a tag, as its station: when it was last seen, its tags/h over the
            last 10 minutes, its yield (done ÷ attempts) and its last failure;
          - the ETA of the open rows at the line's rate (every station's together), while a station
            runs (on a ledger server: one of the job's stations holds a live lease; on a ledger file: a
            reader attempted a tag in the last 2 min);
          - on a ledger server, the lease of each of the job's stations (live or gone, last heartbeat;
            stations that never worked this job are left out), and the stranded
            claims: rows claimed by a station that is gone. Such a tag may hold the row's data, so the
            row is never handed out again by itself: the tag finishes at any station that sees it, or
            'provision release' gives the row back (recorded);
          - the outbox backlog: the job's tag events not yet published (docs/events.md).

        Options:
          --watch SECONDS  redraw the view every SECONDS (in place on a terminal) until Ctrl-C
          --times N        with --watch: stop after N views (for scripts)
          --json           print the view as one JSON document (version 2, docs/json.md); not with --watch
          --ledger FILE|URI
                           the ledger to read: with --job NAME instead of MANIFEST, or overriding
                           the MANIFEST's (a PostgreSQL URI for a line of stations)
        \(LedgerTLS.help)

        Exit codes: 0 ok, 64 usage, 65 bad manifest, 66 missing manifest or ledger, 74 I/O error.

        Examples:
          provision status jobs/batch.json
          provision status jobs/batch.json --watch 2

        """

    /// The job whose ledger is read.
    var target: JobTarget
    /// `--watch SECONDS`: redraw every so often.
    var watch: Double?
    /// `--times N`: views before a watch ends.
    var times: Int?
    /// `--json`: one document.
    var json = false

    /// `--insecure-ledger`: a ledger server over TCP without a verified certificate (`LedgerTLS`).
    var insecureLedger = false

    static func parse(_ arguments: [String]) throws(CLIError) -> StatusCommand {
        let args = try Arguments(
            arguments, flags: ["json", LedgerTLS.flag], options: ["ledger", "job", "watch", "times"])
        try args.requirePositionals(0...1, usage: "provision status MANIFEST | --ledger FILE --job NAME")
        let watch = try args.seconds("watch") { "option '--watch' needs seconds > 0, got '\($0)'" }
        let times = try args.integer("times", in: 1...Int.max)
        if args.flag("json"), watch != nil {
            throw .usage("--json prints one document; it cannot --watch", option: "watch")
        }
        if times != nil, watch == nil { throw .usage("--times counts the views of --watch", option: "times") }
        return StatusCommand(
            target: try JobTarget(args), watch: watch, times: times, json: args.flag("json"),
            insecureLedger: args.flag(LedgerTLS.flag))
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let (_, location, jobName) = try target.resolve(context: context)
        let ledger = try await JobContext.openLedger(
            location, create: false, readOnly: true, station: "status", notes: context.output.diagnostics,
            tls: LedgerTLS(allowInsecure: insecureLedger, job: jobName))
        var shown = 0
        while true {
            let status: LineStatus
            do {
                try await JobContext.requireJob(jobName, in: ledger, at: location)
                let now = Date()
                var view = LineStatus(
                    job: jobName, counts: try await ledger.counts(job: jobName),
                    activity: try await ledger.stationActivity(
                        job: jobName, recentSince: now.addingTimeInterval(-LineStatus.window)),
                    at: now)
                let leases = try await (ledger as? PostgresLedger)?.stationLeases() ?? []
                view.add(leases: leases, claims: try await ledger.openClaims(job: jobName))
                view.outboxBacklog = try await ledger.outboxBacklog(job: jobName)
                status = view
            } catch let error as LedgerError {
                throw JobContext.cliError(error)
            }
            if json {
                try context.output.document(status)
                return .success
            }
            // On a terminal each view replaces the last; piped, views follow each other.
            if watch != nil, isatty(STDOUT_FILENO) == 1 { context.output.write("\u{1B}[H\u{1B}[2J") }
            context.output.write(status.text)
            shown += 1
            guard let watch, shown < (times ?? Int.max) else { return .success }
            try await Task.sleep(for: .milliseconds(Int(watch * 1000)))
        }
    }
}
