import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import Reports
import Support

/// `provision run MANIFEST`: pre-flight, then one line worker per reader over the job's ledger, then
/// the reports.
struct RunCommand: Command {
    static let name = "run"
    static let stopsBetweenTags = true
    static let summary = "program the tags of a job: pre-flight, write, verify, lock, log, report"
    static let help = """
        Usage: provision run MANIFEST [--reader SPEC]... [--quiet] [--json] [--idle SECONDS]
                             [--accept-changed-manifest] [--accept-new-rows] [--no-feedback] [--allow-test-keys]
                             [--max-consecutive-failures N] [--wait] [--ledger FILE|URI] [--station NAME]
                             [--lease SECONDS] [--allow-extractable-key] [--reader-timeout SECONDS]
                             [--publish mqtt[s]://HOST[:PORT]/PREFIX [--publish-credentials @FILE|env:VAR]
                              [--publish-ca FILE] [--publish-cert FILE --publish-key FILE]
                              [--publish-required N] [--publish-drain SECONDS]] [--no-publish]

        Runs the job at an encoding station. Pre-flight checks every row first (nothing is touched if
        it fails, exit 65). Then, for every tag presented: detect → identify (GET_VERSION; pages 0–2
        cross-checked against the anticollision UID, BCCs and INT = 48, a clone refused as
        identityMismatch before any WRITE unless the manifest says "identityCheck": "record") → check
        NDEF status and capacity → claim the next row in the ledger → write (tear-safe) → read back
        and compare every byte → lock if the job says so → commit the row durably → prompt for removal.

        The ledger (default reports/<job>/ledger.sqlite) makes the job exactly-once and resumable:
        run the same command again to continue where it stopped. A tag pulled mid-write keeps its
        row; present it again to finish it. A refused or failed tag is released and not tried again until
        it is presented again. After the last row the run ends at once, without waiting for the last tag
        to be taken away ("job complete: remove the last tag"). Reports (summary.md/.json, tags.csv,
        failures.csv, report.html) are written to the reports folder at the end; `provision report` rewrites them.

          --reader SPEC    reader to use; repeat for several readers on one job (one worker each).
                           Overrides the manifest's `readers`. Default: the simulated reader with
                           the job's chip: sim:CHIP for a CHIP job, and
                           \(ChipLists.jobSimulators(indent: 19)).
          --quiet          no progress or prompts (errors still go to stderr)
          --json           print summary.json (version 1) to stdout instead of the summary table,
                           also when rows failed (exit 1); when the run could not start (bad job,
                           missing file, no reader or ledger) {"error": {...}} instead (docs/json.md)
          --idle SECONDS   stop when no usable tag arrives for this long (default: wait for ever); only a
                           tag the job finishes is usable: refused and failed tags (wrong chip, signature,
                           already provisioned, any failure) do not count
          --reader-timeout SECONDS
                           a reader that goes away mid-job (unplugged, pcscd restarted, its port gone) pauses
                           ("reader X gone; waiting for it") and is opened again with a backoff until it
                           returns under the same PC/SC name or libnfc connection string; the tag that was
                           on it resumes by its UID. The run stops (exit 69, rows left, the readers named)
                           only once every reader has been gone this long (default: wait for ever)
          --max-consecutive-failures N
                           pause a reader after N tags in a row refused or failed with the same failure
                           class (a wrong reel, a signature no trust key verifies, tags too small): it
                           stops taking tags with a message naming the class and its likely cause; the
                           run ends with exit 1 when no reader is left, and the same command continues
                           the job (default 5; 0 never pauses). Tags this job already finished, presented
                           again, do not count. --max-wrong-chip N is the same option's old name
          --wait           when every open row is held by another station's claim, keep waiting for work
                           (a service) instead of ending the run (exit 75, naming the rows and holders)
          --no-feedback    no LED/buzzer signal on readers that have them (ACR122U-style PC/SC:
                           green and a short beep on pass, red and a long beep on fail)
          --accept-changed-manifest
                           continue a job whose manifest, template or records file changed since
                           it started (recorded in the ledger; registered rows keep their fields)
          --accept-new-rows
                           add rows appended to the end of the records file since the job started
                           (every registered row must be unchanged; recorded in the ledger)
          --allow-test-keys
                           run a job that trusts a repository test signing key or uses a documented
                           sample key (jobs/auth.json's, jobs/sun.json's) or a keyed chip's published
                           delivery key on a real (non-simulated) reader; without it such a job is
                           refused (exit 65) before any reader opens, since anyone can forge tags
                           under public keys
        \(KeyCustodyHelp.option)

        At start, each key's id and fingerprint (v1: computed where the key lives, so a key file and the
        same key in a PKCS #11 token show the same one; docs/keys.md) go to stderr, so the operator can
        check that the intended keys are loaded. Keys come from files, env: variables or pkcs11: URIs.

        A line of stations shares one job through a PostgreSQL ledger (docs/stations.md): every station
        runs the same manifest with "ledger": "postgresql://…" (or --ledger) and its own station name.
        Run 'provision ledger migrate' once per server and schema first.

        """ + LedgerChoice.help + """
                \(LedgerTLS.help)
                  --station NAME   this station's name on a ledger server (default: the host name); several
                                   stations on one host need their own names. A second live process with the
                                   same name is refused (exit 69). Reader names are recorded as NAME/READER
                  --lease SECONDS  how long the station's lease holds without a heartbeat (default 15; the
                                   heartbeat runs every fifth of it). A station frozen or cut off for longer
                                   stops without writing (exit 75); its claimed tag can finish at any station

            """ + """

            Publishing (docs/events.md, "run --publish"): every outcome's event goes to the broker while the line
            runs; the manifest's "publish" object ("to", "credentials", "ca", "cert", "key", "required", "drain")
            gives the same settings, and each flag overrides its field; --no-publish ignores that object.

            """ + PublishOptions.help + """

            Ctrl-C finishes the tag in progress, then stops (exit 130); a second Ctrl-C aborts at once.
            With --publish, SIGTERM does the same, and both still drain the outbox (--publish-drain) and leave the
            retained status offline. The ledger is consistent either way.

            Exit: 0 every row done, 1 rows remain or failed (or a reader paused), 64 usage, 65 bad job,
            66 missing file, 69 reader or ledger unavailable, or the station is live elsewhere (also when every
            reader has been gone for --reader-timeout and rows remain; run again to resume), 73 cannot create the
            ledger or reports, 74 I/O, 77 a key file readable by group or others, or the broker refused the
            publishing credentials, 75 the station's lease ran out or every row left is claimed by another
            station, 130 interrupted.

            Examples:
              provision run jobs/batch.json
              provision run jobs/batch.json --reader '\(ReaderFactory.defaultSpec)?timing=datasheet&faults=tear:0.02'
              provision run jobs/batch.json --reader pcsc:#0 --reader pcsc:#1

            """ + ReaderFactory.specHelp

    /// The job manifest.
    var manifest: String
    /// `--reader SPEC`, repeatable; empty: the manifest's readers, else the job's chip on the simulator.
    var readers: [String] = []
    /// `--quiet`, `-q`: no progress or prompts.
    var quiet = false
    /// `--json`: print summary.json instead of the summary table.
    var json = false
    /// `--idle SECONDS`: stop after this long without a usable tag.
    var idle: Double?
    /// `--max-consecutive-failures N` (alias `--max-wrong-chip`; default 5; 0 never pauses).
    var maxConsecutiveFailures = 5
    /// `--wait`: a station with nothing left to claim keeps waiting for work.
    var waitForWork = false
    /// `--accept-changed-manifest` and `--accept-new-rows`.
    var changePolicy = ChangePolicy()
    /// `--no-feedback`: no LED/buzzer signal.
    var feedback = true
    /// `--allow-test-keys`.
    var allowTestKeys = false
    /// `--allow-extractable-key`: accept a token master that could leave its token.
    var allowExtractableKey = false
    /// `--ledger` and `--station`.
    var ledger = LedgerChoice()
    /// `--lease SECONDS` on a ledger server.
    var leaseSeconds = StationSession.defaultLeaseSeconds
    /// `--reader-timeout SECONDS`: stop once every reader has been gone this long (`nil`: wait for ever).
    var readerTimeout: Double?
    /// `--publish URL` and its options: publish the outbox while the line runs (over the manifest's `publish`).
    var publish = PublishOptions()
    /// `--no-publish`: ignore the manifest's `publish` (a rehearsal of a production job).
    var publishes = true

    static func parse(_ arguments: [String]) throws(CLIError) -> RunCommand {
        let args = try Arguments(
            arguments,
            flags: [
                "quiet", "json", "accept-changed-manifest", "accept-new-rows", "no-feedback", "allow-test-keys", "wait",
                "allow-extractable-key", LedgerTLS.flag, "no-publish",
            ],
            options: Set(
                [
                    "reader", "idle", "max-consecutive-failures", "max-wrong-chip", "ledger", "station", "lease",
                    "reader-timeout",
                ] + PublishOptions.options),
            aliases: ["q": "quiet"])
        try args.requirePositionals(1...1, usage: "provision run MANIFEST [--reader SPEC]...")
        let oldMaxFailures = try args.integer("max-wrong-chip", in: 0...1_000_000)
        var command = RunCommand(
            manifest: args.positionals[0], readers: args.all("reader"), quiet: args.flag("quiet"),
            json: args.flag("json"), idle: try args.seconds("idle") { _ in "option '--idle' needs seconds > 0" },
            maxConsecutiveFailures: try args.integer("max-consecutive-failures", in: 0...1_000_000)
                ?? oldMaxFailures ?? 5,
            waitForWork: args.flag("wait"),
            changePolicy: ChangePolicy(
                acceptChanged: args.flag("accept-changed-manifest"), acceptNewRows: args.flag("accept-new-rows")),
            feedback: !args.flag("no-feedback"), allowTestKeys: args.flag("allow-test-keys"),
            ledger: try LedgerChoice(args),
            leaseSeconds: try args.seconds("lease") { "option '--lease' needs seconds > 0, got '\($0)'" }
                ?? StationSession.defaultLeaseSeconds)
        command.allowExtractableKey = args.flag("allow-extractable-key")
        command.readerTimeout = try args.seconds("reader-timeout") {
            "option '--reader-timeout' needs seconds > 0, got '\($0)'"
        }
        command.publish = try PublishOptions(args)
        if args.flag("no-publish") {
            guard command.publish.isEmpty else {
                throw .usage("--no-publish and the --publish… options exclude each other", option: "no-publish")
            }
            command.publishes = false
        }
        return command
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let output = context.output
        let err = output.diagnostics
        var job = try JobContext.load(manifest, context: context, ledger: ledger.ledger)
        try Self.preflight(job, context: context)
        // The broker URL, credentials and TLS files are checked before anything is written.
        let publishing =
            publishes
            ? try PublishOptions.configuration(
                publish, manifest: job.manifest, currentDirectory: context.currentDirectory,
                environment: context.environment) : nil
        try job.loadKeys(
            environment: context.environment, custody: context.keyCustody(allowExtractable: allowExtractableKey))
        let specs =
            readers.isEmpty
            ? (job.manifest.readers.isEmpty
                ? [ReaderFactory.defaultSpec(for: job.manifest.tag)]
                : job.manifest.readers.map(\.text))
            : readers
        if !quiet {
            for id in job.keys.keys.sorted() {
                err.line("key \(id): fingerprint \(job.keys[id]?.fingerprint ?? "")")
            }
        }
        try job.refuseTestKeys(specs: specs, allowed: allowTestKeys)
        try job.prepareOutputFolders()
        let readers = try await ReaderFactory.open(specs)
        // A signature command over ISO-DEP is an ordinary APDU every reader path passes; a raw frame (READ_SIG `3C`) is
        // not.
        if job.manifest.security.signature == .require, job.manifest.tag.tagFamily?.transport != .isoDEP {
            for reader in readers where !reader.capabilities.rawCommands {
                throw CLIError(
                    .unavailable,
                    "reader '\(reader.name)' cannot send raw commands (READ_SIG), and the job requires the "
                        + "originality signature; use a reader with raw command support or set "
                        + "\"signature\": \"record\""
                )
            }
        }
        // On a server every station is named (default: the host name); on a file only when asked.
        let station = job.manifest.ledger.fileURL == nil || self.ledger.station != nil ? self.ledger.stationName : nil
        let tls = LedgerTLS(allowInsecure: self.ledger.insecure, job: job.manifest.job, recordsOnOpen: false)
        let ledger = try await JobContext.openLedger(
            job.manifest.ledger, create: true, station: station ?? "provision", notes: err, tls: tls)
        let display = ProgressDisplay(sink: err, quiet: quiet)
        // Outside the workers, a dropped server connection pauses the step and runs it again, as the workers do.
        let outage = OutageRetry(limit: .milliseconds(Int(leaseSeconds * 1000)), stop: context.stop, display: display)
        try await JobKeyBinding.bind(job, in: ledger, outage: outage)  // another key for a key id: 65, nothing changed
        try await Self.register(job, in: ledger, policy: changePolicy, outage: outage)
        try await tls.record(on: job.manifest.ledger, in: ledger)  // once the job is registered
        var settings = WorkerSettings(
            idleSeconds: idle, feedback: feedback, maxConsecutiveFailures: maxConsecutiveFailures)
        settings.waitsForWork = waitForWork
        settings.readerAbsence = ReaderAbsence(timeout: readerTimeout.map { .milliseconds(Int($0 * 1000)) })
        let session = try await LineSession.run(
            job: job, readers: readers, ledger: ledger, station: station, leaseSeconds: leaseSeconds,
            settings: settings,
            display: display, stop: context.stop, outage: outage,
            publish: publishing.map { PublishTarget(configuration: $0, station: station ?? self.ledger.stationName) })
        display.finish()
        let report = try await Self.finalReport(job, ledger: ledger, outage: outage)
        do {
            try RunReportWriter.write(report, to: job.manifest.reportsURL)
        } catch {
            throw JobContext.reportsError(error, folder: job.manifest.reportsURL)
        }
        if json {
            output.document(json: RunReportWriter.json(report, RunFigures(report)))
        } else {
            output.write(
                RunSummaryText.render(report, reportsFolder: job.manifest.displayPath(job.manifest.reportsURL)))
        }
        for problem in session.readerFailures { err.line("error: \(problem)") }
        for (reader, failureClass) in session.pausedReaders {
            err.line(
                "error: reader \(reader) paused after \(maxConsecutiveFailures) tags in a row failed with "
                    + "\(failureClass.rawValue): \(failureClass.likelyCause)")
        }
        if session.interrupted { return .interrupted }
        if session.leaseLost, report.rows.done < report.rows.total { return .temporaryFailure }
        if session.nothingToClaim, report.rows.done < report.rows.total {
            try await StrandedRows.report(job, ledger: ledger, outage: outage, to: err)
            return .temporaryFailure
        }
        if report.rows.done == report.rows.total { return .success }
        // Rows remain and a reader stopped under us (unplugged, daemon gone): the line needs a reader. Failed
        // tags alone are counted in the report and exit 1.
        guard let stopped = session.readerFailures.first else { return .failure }
        return ErrorTable.exitCode(for: ReaderFailure(.stopped, stopped))
    }

    /// The run's report, read from the ledger, and the job marked finished when every row is done: one step,
    /// run again after a dropped server connection (both are safe to repeat).
    static func finalReport(_ job: JobContext, ledger: any LedgerStore, outage: OutageRetry) async throws(CLIError)
        -> RunReport
    {
        try await outage.runForCommand("end of run", on: ledger) {
            let report = try await RunReportBuilder.build(
                ledger: ledger, job: job.manifest.job, serial: { [job] in job.serial(row: $0) })
            if report.rows.done == report.rows.total { try await ledger.markFinished(job: job.manifest.job) }
            return report
        }
    }

    /// Pre-flight: every problem on stderr and exit 65 before any tag or ledger is touched.
    static func preflight(_ job: JobContext, context: CommandContext) throws(CLIError) {
        let summary: PreFlightSummary
        do {
            summary = try PreFlight.run(job.manifest)
        } catch {
            throw ErrorTable.cliError(error, message: error.description)
        }
        guard summary.isValid else { throw PreFlightOutput.failure(summary, context: context) }
    }
}
