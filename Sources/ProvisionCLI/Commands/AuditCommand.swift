import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import Reports
import Support

/// `provision audit MANIFEST`: reads tags back and checks them against the ledger and the job; never
/// writes to a tag.
struct AuditCommand: Command {
    static let name = "audit"
    static let stopsBetweenTags = true
    static let summary = "read tags back and check content, lock and protection against the ledger (never writes)"
    static let usage =
        "provision audit MANIFEST [--reader SPEC]... [--count N] [--idle SECONDS] [--max-unknown N] [--deep] [--json] "
        + "[--quiet] [--allow-test-keys] [--allow-extractable-key]"
    static let help = """
        Usage: \(usage)

        Reads tags as they are presented, looks each UID up in the job's ledger, reads the NDEF
        message (GET_VERSION, READ 00, FAST_READ) and compares its SHA-256 with the recorded one, and
        checks that the tag is read-only (CC3 write access F, static lock bytes FF FF) when the job
        has 'lock: permanent'. Never writes to a tag. A UID presented again is audited once.
        When the job has a 'protect' section, its key is loaded (as 'run' loads it) and each NTAG21x
        is authenticated first: PWD_AUTH with the tag's derived password, the PACK must match; then
        read-protected pages (prot: readwrite) can be read. A tag the ledger says another key
        programmed gets no PWD_AUTH (a wrong password counts toward AUTHLIM). Then one FAST_READ of
        the configuration pages checks what 'run' set: AUTH0, PROT, AUTHLIM and CFGLCK from 'protect',
        and for a template with a mirror token MIRROR_CONF, MIRROR_BYTE, MIRROR_PAGE and NFC_CNT_EN
        (the mirrored UID/counter in the message is then expected; such a job needs the keys 'run' needs).
        A keyed job (a manifest with its chip's keyed section, docs/authentication.md) loads its
        master key and reads each tag unauthenticated, as a phone does: the message must be the row's
        template outside the chip's dynamic message, which must verify under the tag's keys, and the
        file settings and key versions the chip shows must be those the ledger's key journal recorded.
        The tag is not authenticated unless --deep is given: then one authentication with its job
        master key (a refusal counts toward the chip's failure counter).

        Each tag gets one finding:
          pass            content as recorded, locked (or not) and configured as the job sets
          mismatch        the message differs from the ledger, or it cannot be read
          unknown         the UID is not done in this job (the finding names another job that owns it)
          unlocked        content as recorded, but not read-only although the job locks
          authFailed      the job protects tags and the tag refused the derived password, or the
                          ledger names another key (fingerprint) for it
          configMismatch  content as recorded, but a configuration field (AUTH0, PROT, AUTHLIM,
                          CFGLCK, MIRROR_*, NFC_CNT_EN) is not what the run set, or the tag is locked
                          although the job does not lock; the finding names field, expected, found
          identityMismatch
                          pages 0–2 disagree with the UID the tag gave in anticollision, a BCC or
                          INT = 48 (a clone; checked on the READ 00 the audit sends anyway; not
                          judged when the manifest says "identityCheck": "record")
          blank           a never-written tag that is in no job (no NDEF formatting, no message or an
                          empty one: a spare presented after the job ended); listed apart, not a failure

        Stops after --count tags, after --idle seconds without a tag, after --max-unknown unknown (or
        blank) tags in a row, when a simulated reader has no more tags, or on Ctrl-C (a second Ctrl-C exits at once).
        A simulated reader must keep its tags (store=DIR, as the sample jobs do in reports/<job>/tags):
        without a store it presents fresh tags, never the ones run programmed, and audit refuses it. Then writes
        audit-<when>.md/.json/.csv/.html into the job's reports folder and prints a summary. A mismatch shows,
        record by record, the records the run wrote ("expected:", the row rendered again) beside the tag's
        ("on tag:"), the differing ones marked.

        Options:
          --reader SPEC     reader to use (repeatable; default: the manifest's readers, else the job's chip on sim:)
          --count N         stop after N tags
          --idle SECONDS    stop after this long without a tag
          --max-unknown N   stop after N unknown or blank tags in a row, exit 1 (default 20; 0 never stops)
          --deep            keyed jobs: also authenticate each tag with its job master key
          --json            print a stable JSON object (version 2) instead of the table; each
                            finding lists the records read ("records": the objects 'provision
                            ndef decode --json' prints; absent when no message was read) and,
                            for a mismatch, the records the run wrote ("expected"); when
                            the audit could not start (no ledger, no reader, bad job)
                            {"error": {...}} instead (docs/json.md)
          --quiet, -q       no prompts or per-tag lines
          --allow-test-keys audit on a real (non-simulated) reader with public test material, as 'run'
                            allows it: a repository test signing key in signature.trust (it would pass
                            forged tags), a documented sample key or a keyed chip's all-zero factory
                            key; without it such a job is refused (exit 65) before any reader opens
        \(KeyCustodyHelp.option)
        \(LedgerTLS.help)

        \(ReaderFactory.specHelp)
        Exit: 0 every finding passed (or was blank), 1 some did not, 64 usage, 65 bad manifest or test
        keys, 66 no manifest or no ledger or no key, 69 reader unavailable, 73 reports folder cannot be
        created, 77 a key file readable by group or others, 130 interrupted.

        Examples:
          provision audit jobs/batch.json --count 20
          provision audit jobs/batch.json --reader nfc:pn532_uart:/dev/ttyUSB0 --idle 60 --json

        """

    /// The job manifest.
    var manifest: String
    /// `--reader SPEC`, repeatable; empty: the manifest's readers, else the job's chip on the simulator.
    var readers: [String] = []
    /// `--count N`: stop after N tags.
    var count: Int?
    /// `--idle SECONDS`: stop after this long without a tag.
    var idle: Double?
    /// `--max-unknown N` (default 20; 0 never stops).
    var maxUnknown = 20
    /// `--json`: print the stable object instead of the table.
    var json = false
    /// `--quiet`, `-q`: no prompts or per-tag lines.
    var quiet = false
    /// `--deep`: authenticate each keyed tag with its job master key.
    var deep = false
    /// `--ledger FILE|URI`: instead of the manifest's.
    var ledger: String?
    /// `--allow-test-keys`: public test material on a real reader.
    var allowTestKeys = false
    /// `--allow-extractable-key`: accept a token master that could leave its token.
    var allowExtractableKey = false

    /// `--insecure-ledger`: a ledger server over TCP without a verified certificate (`LedgerTLS`).
    var insecureLedger = false

    static func parse(_ arguments: [String]) throws(CLIError) -> AuditCommand {
        let args = try Arguments(
            arguments, flags: ["json", "quiet", "deep", "allow-test-keys", "allow-extractable-key", LedgerTLS.flag],
            options: ["reader", "count", "idle", "max-unknown", "ledger"], aliases: ["q": "quiet"])
        try args.requirePositionals(1...1, usage: usage)
        let readers = args.all("reader")
        try refuseStorelessSimulators(readers)
        var command = AuditCommand(
            manifest: args.positionals[0], readers: readers, count: try args.integer("count", in: 1...Int.max),
            idle: try args.seconds("idle") { "option '--idle' needs a positive number of seconds, got '\($0)'" },
            maxUnknown: try args.integer("max-unknown", in: 0...Int.max) ?? 20, json: args.flag("json"),
            quiet: args.flag("quiet"), deep: args.flag("deep"), ledger: args.value("ledger"),
            allowTestKeys: args.flag("allow-test-keys"))
        command.allowExtractableKey = args.flag("allow-extractable-key")
        command.insecureLedger = args.flag(LedgerTLS.flag)
        return command
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let output = context.output
        var job = try JobContext.load(self.manifest, context: context, ledger: ledger)
        let manifest = job.manifest
        let custody = context.keyCustody(allowExtractable: allowExtractableKey)
        let protectionKey = try job.loadProtectionKey(environment: context.environment, custody: custody)
        // A mirror's place is found by rendering the row as `run` does, which needs every key it uses.
        if job.hasMirror || manifest.dynamicMessage != nil {
            try job.loadKeys(environment: context.environment, custody: custody)
        }
        try job.refuseTestKeys(
            specs: readers.isEmpty ? manifest.readers.map(\.text) : readers, allowed: allowTestKeys,
            keys: protectionKey.map { [$0] } ?? [])
        let ledger = try await JobContext.openLedger(
            manifest.ledger, create: false, readOnly: true, station: "audit", notes: output.diagnostics,
            tls: LedgerTLS(allowInsecure: insecureLedger, job: manifest.job))
        do {
            try await JobContext.requireJob(manifest.job, in: ledger, at: manifest.ledger)
        } catch let error as LedgerError {
            throw JobContext.cliError(error)
        }
        try await JobKeyBinding.check(
            Array(job.keys.values) + [protectionKey].compactMap { $0 }, job: manifest.job, in: ledger)
        do {
            try PrivateFiles.createFolder(manifest.reportsURL)
        } catch {
            throw CLIError(.cannotCreate, "cannot create the reports folder \(manifest.reportsURL.path)")
        }
        var specs = readers
        if specs.isEmpty { specs = manifest.readers.map(\.text) }
        if specs.isEmpty { specs = [ReaderFactory.defaultSpec(for: manifest.tag)] }
        try Self.refuseStorelessSimulators(specs)
        let readers = try await ReaderFactory.open(specs.map(Self.storedPopulation))

        let started = Date()
        let display = ProgressDisplay(sink: output.diagnostics, quiet: quiet)
        let session = AuditSession(limit: count, maxUnknown: maxUnknown == 0 ? nil : maxUnknown)
        let line = job.lineJob()
        var auditor = TagAuditor(
            job: manifest.job, lockRequired: manifest.lock == .permanent,
            protectionKey: protectionKey, protection: manifest.security.protection, mirror: line.mirror)
        auditor.render = line.render  // a mismatch shows the records the run wrote
        auditor.identityCheck = manifest.identityCheck
        auditor.keyed = job.keyedAudit(deep: deep)
        let failure = await Self.runWorkers(
            readers, ledger: ledger, auditor: auditor, session: session, display: display,
            settings: WorkerSettings(idleSeconds: idle), stop: context.stop,
            families: TagFamilies.standard.preferring(manifest.tag.families(type4: manifest.type4)))
        display.finish()

        await session.recordUnread()
        let verdicts = await session.verdicts
        let report = AuditReport(
            job: manifest.job, when: started, readers: readers.map(\.name),
            findings: verdicts.map {
                AuditReport.Finding(
                    uid: Hex.compact($0.verdict.uid), row: $0.verdict.row,
                    status: $0.verdict.status, detail: $0.verdict.detail,
                    time: $0.time, message: $0.verdict.message, expected: $0.verdict.expected)
            })
        let files: [URL]
        do {
            files = try AuditReportWriter.write(report, to: manifest.reportsURL)
        } catch {
            throw CLIError(.cannotCreate, "cannot write the audit files into \(manifest.reportsURL.path): \(error)")
        }
        let interrupted = context.stop.isRequested
        let summary = AuditSummary(
            report: report, repeats: await session.repeats, interrupted: interrupted,
            files: files.map { context.displayPath($0) })
        if json {
            output.document(json: summary.jsonText())
        } else {
            output.write(summary.text())
        }
        if let failure { throw failure }
        if interrupted { return .interrupted }
        if await session.stoppedOnUnknown {
            output.diagnostics.line(
                "error: stopped after \(maxUnknown) unknown tags in a row (blank ones included): these tags are not "
                    + "this job's (another box, or a simulated reader that does not keep the run's tags)")
            return .failure
        }
        return report.passed ? .success : .failure
    }

    /// Refuses a simulated reader without `store=`: it presents fresh tags, so the audit could never end.
    static func refuseStorelessSimulators(_ specs: [String]) throws(CLIError) {
        for text in specs {
            guard let spec = try? ReaderSpec(text), spec.scheme == "sim", spec.option("store") == nil else { continue }
            throw .usage(
                "reader '\(text)' is a simulated reader without store=DIR: it presents fresh tags, never the ones "
                    + "'run' programmed, so an audit of it could not pass or end. Audit the reader 'run' used with its "
                    + "store (the sample jobs keep theirs: sim:…&store=../reports/<job>/tags)")
        }
    }

    /// A simulated reader with a store presents the stored tags only (`population=stored`): the tags
    /// `run` programmed, then no more, so an audit of a simulated line ends by itself.
    static func storedPopulation(_ text: String) -> String {
        guard let spec = try? ReaderSpec(text), spec.scheme == "sim", spec.option("store") != nil,
            spec.option("population") == nil, spec.option("count") == nil
        else { return text }
        return text + "&population=stored"
    }
}
