import Foundation
import Ledger
import MQTTService
import Provisioning
import Publishing

/// `provision publish MANIFEST --to mqtt://…/PREFIX`: drains a job's outbox (every station's events) to an MQTT
/// broker from one place, for lines whose stations cannot reach it; `--follow` keeps publishing until stopped.
struct PublishCommand: Command {
    static let name = "publish"
    static let summary = "publish the job's outbox of tag events to an MQTT broker (drain, or --follow)"
    static let help = """
        Usage: provision publish MANIFEST --to mqtt://HOST[:PORT]/PREFIX [options]
               provision publish --ledger FILE|URI --job NAME --to mqtt://HOST[:PORT]/PREFIX [options]

        Publishes the job's tag events from the ledger's outbox (docs/events.md) to an MQTT broker at
        QoS 1, oldest first, every station's events under its own name: PREFIX/JOB/STATION/tag, the
        event's JSON payload with its "id" (consumers dedupe by it: an event may arrive twice). An
        event is marked published only after the broker's PUBACK; what is not acknowledged is sent
        again, in order, after a reconnect. This process's retained status is PREFIX/publisher/status
        ("online", and "offline" when it ends or, as the broker's last will, when it dies).

        Without --follow it publishes until the outbox is empty and exits 0, printing how many events
        it published and how many are left; a broker that cannot be reached, or that acknowledges
        nothing for 10 s, exits 69 and names the backlog (nothing is lost: the events stay in the
        outbox). With --follow it keeps publishing new events as stations write them until Ctrl-C or
        SIGTERM (exit 0), riding out broker outages with one warning each.

        Only one publisher a job runs at a time (a lock on the ledger: a PostgreSQL advisory lock, or a
        lock file next to a ledger file); a second one exits 75. On a ledger server it runs as a login
        granted the publisher role (provision ledger grant publisher LOGIN), which may only read the
        outbox and mark events published.

        Options:
          --to mqtt://HOST[:PORT]/PREFIX
                         the broker (mqtts:// for TLS; default ports 1883 and 8883); default: the
                         manifest's "publish".to
          --publish-credentials @FILE|env:VAR
                         a user:password line from an owner-only file or an environment variable; never a
                         password on the command line
          --publish-ca FILE  mqtts://: the CA the broker's certificate chains to (default: the system's CAs)
          --publish-cert FILE, --publish-key FILE
                         mqtts://: a client certificate and its owner-only key, given together
          --follow       keep publishing new events until Ctrl-C or SIGTERM
          --json         print {"version": 2, "job", "broker", "published", "left"} at the end
          --ledger FILE|URI
                         the ledger to publish from: with --job NAME instead of MANIFEST, or overriding the
                         MANIFEST's (a PostgreSQL URI for a line of stations)
        \(LedgerTLS.help)

        Exit codes: 0 ok (also when --follow is stopped), 64 usage, 65 bad manifest, 66 missing manifest
        or ledger, 69 broker unreachable (without --follow) or not acknowledging, 75 another publisher
        holds the job, 77 the broker refused the credentials (or a credentials file others can read).

        Examples:
          provision publish jobs/batch.json --to mqtt://broker.plant:1883/plant/provision
          provision publish --ledger postgresql://pub@db/line --job batch --follow \\
              --to mqtts://broker.plant/plant --publish-ca ca.pem --publish-credentials @broker.cred

        """

    /// The station name this process publishes its status under.
    static let station = "publisher"
    /// How long a drain without --follow waits for the broker to acknowledge anything before it gives up.
    static let stallLimit = Duration.seconds(10)

    /// The job whose outbox is published.
    var target: JobTarget
    /// `--to` and the `--publish-…` connection options.
    var options: PublishOptions
    /// `--follow`.
    var follow = false
    /// `--json`.
    var json = false
    /// `--insecure-ledger`.
    var insecureLedger = false

    static func parse(_ arguments: [String]) throws(CLIError) -> PublishCommand {
        let args = try Arguments(
            arguments, flags: ["follow", "json", LedgerTLS.flag],
            options: ["ledger", "job", "to", "publish-credentials", "publish-ca", "publish-cert", "publish-key"])
        try args.requirePositionals(0...1, usage: "provision publish MANIFEST | --ledger FILE --job NAME")
        let options = PublishOptions(
            url: args.value("to"), credentials: args.value("publish-credentials"), ca: args.value("publish-ca"),
            cert: args.value("publish-cert"), key: args.value("publish-key"))
        return PublishCommand(
            target: try JobTarget(args), options: options, follow: args.flag("follow"), json: args.flag("json"),
            insecureLedger: args.flag(LedgerTLS.flag))
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let (job, location, jobName) = try target.resolve(context: context)
        let configuration = try self.configuration(manifest: job?.manifest, context: context)
        let ledger = try await JobContext.openLedger(
            location, create: false, station: Self.station, notes: context.output.diagnostics,
            tls: LedgerTLS(allowInsecure: insecureLedger, job: jobName))
        do {
            try await JobContext.requireJob(jobName, in: ledger, at: location)
        } catch let error as LedgerError where error.code == .roleRequired || error.code == .readOnly {
            // A publisher's login reads the jobs' names only: the outbox tells the rest.
        } catch let error as LedgerError {
            throw JobContext.cliError(error)
        }
        let lock: PublisherLock
        do {
            guard let taken = try await ledger.acquirePublisherLock(job: jobName) else {
                throw CLIError(
                    .temporaryFailure,
                    "another 'provision publish' is publishing job '\(jobName)' from \(location); one publisher a "
                        + "job runs at a time: try again once it has ended", errorClass: "publisherBusy")
            }
            lock = taken
        } catch let error as LedgerError {
            throw JobContext.cliError(error)
        }
        let publisher = OutboxPublisher(
            store: ledger, job: jobName, station: Self.station, configuration: configuration,
            statusDetails: ["host": ProcessInfo.processInfo.hostName, "pid": String(getpid())], scope: .job)
        let run = PublishRun(
            publisher: publisher, ledger: ledger, job: jobName, broker: configuration.endpoint.description,
            output: context.output)
        do {
            let code = try await run.publish(follow: follow, json: json)
            await lock.release()
            return code
        } catch {
            await lock.release()
            throw error
        }
    }

    /// The connection settings: `--to` and the `--publish-…` options over the manifest's `"publish"`.
    private func configuration(manifest: Manifest?, context: CommandContext) throws(CLIError) -> PublishConfiguration {
        let found: PublishConfiguration?
        do {
            found = try PublishOptions.configuration(
                options, manifest: manifest, currentDirectory: context.currentDirectory,
                environment: context.environment)
        } catch {
            guard error.field == "--publish" else { throw error }
            var renamed = error
            renamed.field = "--to"
            renamed.message = error.message.replacingOccurrences(of: "--publish:", with: "--to:")
            throw renamed
        }
        guard let found else { throw .usage("give the broker: --to mqtt://HOST[:PORT]/PREFIX", option: "to") }
        return found
    }
}
