import Foundation
import Ledger

/// `provision events MANIFEST`: the ledger's outbox of tag events (docs/events.md), for MES integrations that poll
/// or take file drops; `--follow` waits for new events, from every station of a ledger server.
struct EventsCommand: Command {
    static let name = "events"
    static let summary = "print the job's tag events from the ledger's outbox (done, failed, burned, …)"
    static let help = """
        Usage: provision events MANIFEST [--since ID] [--follow] [--json-lines]
               provision events --ledger FILE|URI --job NAME [--since ID] [--follow] [--json-lines]

        Every row outcome is written to the ledger's outbox in the same transaction as the outcome
        itself: done, failed, quarantined (signature refused), burned, released, reissued, a key change
        abandoned, a station's lease lost. Each event has a stable id (consumers dedupe by it), a
        sequence (the ledger's order) and a versioned JSON payload: job, row and the row's public fields,
        UID, chip, station and reader, outcome and failure class, timings, key id and fingerprint (never
        key bytes). docs/events.md describes it.

        The events are printed oldest first, one per line, with whether they were published yet. The
        ledger is only read: printing an event does not mark it published.

        Options:
          --since ID     only the events after event ID (the last one a consumer took)
          --follow       after the events so far, wait for new ones and print them as they come (every
                         station's, on a ledger server), until Ctrl-C or SIGTERM (exit 0)
          --json-lines   one JSON object per line: {"created", "id", "payload", "published", "sequence"}
          --ledger FILE|URI
                         the ledger to read: with --job NAME instead of MANIFEST, or overriding the
                         MANIFEST's (a PostgreSQL URI for a line of stations)
        \(LedgerTLS.help)

        Exit codes: 0 ok (also when --follow is stopped), 64 usage, 65 bad manifest or an unknown --since
        id, 66 missing manifest or ledger, 74 I/O error.

        Examples:
          provision events jobs/batch.json --json-lines > events.jsonl
          provision events jobs/batch.json --since 0192f3a4-… --follow --json-lines

        """

    /// The job whose events are read.
    var target: JobTarget
    /// `--since ID`.
    var since: String?
    /// `--follow`.
    var follow = false
    /// `--json-lines`.
    var jsonLines = false
    /// `--insecure-ledger`: a ledger server over TCP without a verified certificate (`LedgerTLS`).
    var insecureLedger = false

    /// How often `--follow` looks for new events.
    static let pollInterval = Duration.milliseconds(250)

    static func parse(_ arguments: [String]) throws(CLIError) -> EventsCommand {
        let args = try Arguments(
            arguments, flags: ["follow", "json-lines", LedgerTLS.flag], options: ["ledger", "job", "since"])
        try args.requirePositionals(0...1, usage: "provision events MANIFEST | --ledger FILE --job NAME")
        if let since = args.value("since"), since.isEmpty {
            throw .usage("option '--since' needs an event id", option: "since")
        }
        return EventsCommand(
            target: try JobTarget(args), since: args.value("since"), follow: args.flag("follow"),
            jsonLines: args.flag("json-lines"), insecureLedger: args.flag(LedgerTLS.flag))
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let (_, location, jobName) = try target.resolve(context: context)
        let ledger = try await JobContext.openLedger(
            location, create: false, readOnly: true, station: "events", notes: context.output.diagnostics,
            tls: LedgerTLS(allowInsecure: insecureLedger, job: jobName))
        var cursor = 0
        do {
            try await JobContext.requireJob(jobName, in: ledger, at: location)
            if let since {
                guard let sequence = try await ledger.outboxSequence(of: since) else {
                    throw CLIError(
                        .dataError, "the ledger \(location) has no event \(since) (--since)", field: "--since")
                }
                cursor = sequence
            }
            cursor = try await printEvents(of: jobName, after: cursor, from: ledger, context: context)
        } catch let error as LedgerError {
            throw JobContext.cliError(error)
        }
        guard follow else { return .success }
        let start = cursor
        let failure = FollowFailure()
        _ = await Interrupts.waitForTermination {
            var cursor = start
            while !Task.isCancelled {
                do {
                    let next = try await printEvents(of: jobName, after: cursor, from: ledger, context: context)
                    if next == cursor { try await Task.sleep(for: Self.pollInterval) }
                    cursor = next
                } catch is CancellationError {
                    return
                } catch {
                    failure.error = error
                    return
                }
            }
        }
        if let error = failure.error as? LedgerError { throw JobContext.cliError(error) }
        if let error = failure.error { throw error }
        return .success
    }

    /// Prints every event of `job` after sequence `after`; returns the last sequence printed (`after` for none).
    private func printEvents(
        of job: String, after: Int, from ledger: any LedgerStore, context: CommandContext
    ) async throws -> Int {
        var cursor = after
        while true {
            let events = try await ledger.outboxEvents(job: job, after: cursor, limit: 500)
            for event in events { context.output.line(jsonLines ? Self.jsonLine(event) : Self.textLine(event)) }
            guard let last = events.last else { return cursor }
            cursor = last.sequence
        }
    }

    /// One event as a JSON object on one line, keys sorted; the payload as the ledger stores it.
    static func jsonLine(_ event: OutboxEvent) -> String {
        let published = event.publishedAt.map { "\"\(OutboxEvent.timestamp($0))\"" } ?? "null"
        return "{\"created\":\"\(OutboxEvent.timestamp(event.createdAt))\",\"id\":\"\(event.id)\","
            + "\"payload\":\(event.payload),\"published\":\(published),\"sequence\":\(event.sequence)}"
    }

    /// One event as a line of text: sequence, time, outcome, row, station, published or not, id.
    static func textLine(_ event: OutboxEvent) -> String {
        let row = event.row.map { "row \($0)" } ?? "-"
        let published = event.publishedAt.map { "published \(OutboxEvent.timestamp($0))" } ?? "unpublished"
        return "#\(event.sequence)  \(OutboxEvent.timestamp(event.createdAt))  \(event.outcome.rawValue)  \(row)  "
            + "station \(event.station ?? "-")  \(published)  \(event.id)"
    }
}

/// The error that ended `--follow`'s loop, handed back to the command.
private final class FollowFailure: @unchecked Sendable {
    // @unchecked: written once by the follow task before it ends, read after `waitForTermination` returns.
    var error: (any Error)?
}
