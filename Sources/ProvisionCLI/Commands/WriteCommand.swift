import Foundation
import NDEF
import NFCTags
import Provisioning
import Support

/// `provision write`: writes one NDEF message to one tag, tear-safe, verified, optionally locked.
struct WriteCommand: Command {
    static let name = "write"
    static let stopsBetweenTags = true
    static let summary = "write an NDEF message to one tag (verify, optional lock)"
    static let help = """
        Usage: provision write [--reader SPEC] [--lock] [--append [--replace]] [--timeout SECONDS] [--json]
                               MESSAGE.json|-
               provision write [--reader SPEC] [--lock] [--append [--replace]] [--json] --uri URL
               provision write [--reader SPEC] [--lock] [--append [--replace]] [--json] --text TEXT [--lang en]

        Builds the message (record JSON from a file or '-' for standard input, or one URI or Text
        record), waits for one tag, checks it (pages 0–2 agree with the anticollision UID, BCCs and
        INT = 48, else identityMismatch; NDEF formatted, writable, not password-protected, large
        enough), writes the NDEF TLV in the tear-safe order (length 0 first, the real length
        last; pages that already match are skipped), re-activates the tag and compares every written
        byte, and with --lock makes the tag permanently read-only and confirms it. Prints the outcome
        and, per phase, the exchanges, modelled radio time (simulator) and wall time.

        Options:
          --reader SPEC      the reader (default \(ReaderFactory.defaultSpec))
          --uri URL          the message is one URI record
          --text TEXT        the message is one Text record (UTF-8)
          --lang CODE        language of --text (default en)
          --lock             lock the tag permanently after a verified write (irreversible)
          --append           add the records after the tag's existing ones (read-modify-write): the
                             existing message is read, capacity is checked on the combined message,
                             the whole is written tear-safe and read back; the original message is
                             printed first (hex) so it can be restored if a tear leaves the tag empty
          --replace          with --append: a tag whose content is unreadable or not NDEF gets the new
                             records alone (without it such a tag is refused as notNDEF)
          --timeout SECONDS  how long to wait for a tag (default 30); none → exit 69
          --json             print one JSON object (stable, version 2): version, reader, uid, chip,
                             message_hex, message_bytes, capacity, outcome written|failed,
                             failure_class, failure_message, locked, unit_kind page|offset|block,
                             written_units, unchanged_units, lock_writes [{unit, data}], phases
                             [{name, exchanges, writes, reactivations, airtime_microseconds,
                             wall_seconds}] (last: total), wall_seconds; a failed tag still
                             exits 1; when no tag was written (no reader, no tag, bad message)
                             {"error": {...}} instead (docs/json.md)

        Record JSON is the format of 'provision ndef' (see 'provision ndef --help'), e.g.
          {"records": [{"type": "uri", "uri": "https://example.com"}]}

        A tag that cannot take the message ends with exit 1 and the failure class:
          notNDEF (no NDEF capability container/TLV), readOnly (locked, CC read-only or password-
          protected), capacity (message too large), verifyMismatch, lockFailed, tagLost, timeout,
          nak, transport.

        Examples:
          provision write --uri https://example.com
          provision write --reader '\(ReaderFactory.defaultSpec)?store=tags&uid=04A1B2C3D4E5F6' message.json
          echo '[{"type":"text","text":"Hello"}]' | provision write - --lock

        Exit codes: 0 written (and locked), 1 the tag failed (class printed), 64 usage, 65 bad
        record JSON (the JSON path is named), 66 missing message file, 69 no tag / no reader, 130
        Ctrl-C (while waiting: nothing written; during the tag: it finishes first; twice: at once).

        \(ReaderFactory.specHelp)
        """

    /// What happened to the tag: phase costs, pages, and the failure if any.
    struct Outcome: Sendable {
        var phases: [PhaseCost] = []
        var writtenPages: [Int] = []
        var skippedPages: [Int] = []
        var lockWrites: [LockCommand.PageWrite] = []
        var capacity = 0
        var failure: (failureClass: String, message: String)?
        /// With --append: the message found on the tag (`[]`: empty), and the combined message written.
        var original: [UInt8]?
        var message: [UInt8]?
        /// The chip the pipeline identified.
        var chip: TagChip?
    }

    /// Where the message comes from.
    enum MessageSource: Sendable, Hashable {
        /// `--uri URL`: one URI record.
        case uri(String)
        /// `--text TEXT [--lang CODE]`: one Text record (UTF-8).
        case text(String, language: String)
        /// `MESSAGE.json` or `-`: record JSON from a file or standard input.
        case file(String)
    }

    /// `--reader SPEC` (default `ReaderFactory.defaultSpec`).
    var reader: String?
    /// `--lock`: lock the tag permanently after a verified write.
    var lock = false
    /// `--json`: print the stable object instead of text.
    var json = false
    /// `--append [--replace]`: read-modify-write; `nil` without `--append`.
    var append: AppendRequest?
    /// The message to write.
    var source: MessageSource
    /// `--timeout SECONDS`: how long to wait for a tag.
    var timeout: Duration

    static func parse(_ arguments: [String]) throws(CLIError) -> WriteCommand {
        let args = try Arguments(
            arguments, flags: ["lock", "json", "append", "replace"],
            options: ["reader", "uri", "text", "lang", "timeout"])
        if args.flag("replace") && !args.flag("append") {
            throw CLIError.usage("--replace only goes with --append", option: "replace")
        }
        return WriteCommand(
            reader: args.value("reader"), lock: args.flag("lock"), json: args.flag("json"),
            append: args.flag("append") ? AppendRequest(replace: args.flag("replace")) : nil,
            source: try messageSource(args), timeout: try args.timeout())
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let message = try Self.buildMessage(source, context: context)
        let reader = try await TagSession.openReader(spec: self.reader)
        let bytes = message.bytes
        let lock = self.lock
        let append = self.append
        let clock = ContinuousClock()
        let start = clock.now
        let (session, outcome) = try await TagSession.withTag(
            on: reader, timeout: timeout, context: context, identify: false
        ) { session in
            let detected = session.detected
            let outcome = try await reader.withTransceiver { transceiver in
                Self.perform(
                    RecordingTransceiver(transceiver), detected: detected, message: bytes, lock: lock, append: append)
            }
            return (session, outcome)
        }
        let wallSeconds = (clock.now - start).seconds
        if json {
            try context.output.document(
                WriteReport(
                    message: outcome.message ?? bytes, session: session, outcome: outcome, lock: lock,
                    wallSeconds: wallSeconds))
        } else {
            Self.report(
                message, session: session, outcome: outcome, lock: lock, wallSeconds: wallSeconds,
                output: context.output)
        }
        if let failure = outcome.failure { throw CLIError(.failure, "\(failure.failureClass): \(failure.message)") }
        return .success
    }

    /// The message source from `--uri`, `--text [--lang]` or one positional, checked at parse time.
    static func messageSource(_ args: Arguments) throws(CLIError) -> MessageSource {
        let usage = "provision write [--lock] MESSAGE.json|- | --uri URL | --text TEXT [--lang en]"
        let sources = [args.value("uri") != nil, args.value("text") != nil, !args.positionals.isEmpty].filter { $0 }
        guard sources.count == 1 else {
            throw .usage(
                sources.isEmpty
                    ? "no message given; usage: \(usage)"
                    : "give exactly one of MESSAGE.json, --uri, --text; usage: \(usage)")
        }
        if args.value("lang") != nil && args.value("text") == nil {
            throw .usage("--lang only goes with --text", option: "lang")
        }
        if let uri = args.value("uri") {
            guard !uri.isEmpty else { throw .usage("--uri needs a URL", option: "uri") }
            return .uri(uri)
        }
        if let text = args.value("text") {
            let language = args.value("lang") ?? "en"
            do {
                _ = try NDEFPayload.text(text, languageCode: language)
            } catch {
                throw .usage("--lang: \(error.message)", option: "lang")
            }
            return .text(text, language: language)
        }
        try args.requirePositionals(1...1, usage: usage)
        return .file(args.positionals[0])
    }

    /// The message from its source (`-`: standard input).
    ///
    /// - Throws: `CLIError` 66 for a missing file, 65 for bad record JSON (naming the JSON path).
    static func buildMessage(_ source: MessageSource, context: CommandContext) throws(CLIError) -> NDEFMessage {
        switch source {
        case .uri(let uri):
            return NDEFMessage(records: [.uri(uri)])
        case .text(let text, let language):
            do {
                return NDEFMessage(records: [try .text(text, languageCode: language)])
            } catch {
                throw .usage("--lang: \(error.message)", option: "lang")
            }
        case .file(let path):
            let data = try NDEFCommand.readInput(path, context: context)
            do {
                return try RecordJSON.decode(data)
            } catch {
                var failure = ErrorTable.cliError(
                    error, message: "\(path == "-" ? "standard input" : path): \(error.description)")
                failure.file = path == "-" ? nil : path
                throw failure
            }
        }
    }

    /// The tag pipeline `run` uses, for one tag without a ledger row: identify (with the identity
    /// cross-check that refuses a clone as `identityMismatch` before any WRITE) → status and capacity →
    /// write → read back → (lock), on the reader's queue. With `append`, the pipeline's read step first
    /// fetches the tag's message. Tag failures end up in `failure` with their class.
    static func perform(
        _ recorder: RecordingTransceiver, detected: DetectedTag, message requested: [UInt8], lock: Bool,
        append: AppendRequest? = nil, families: TagFamilies = .standard
    ) -> Outcome {
        var outcome = Outcome()
        var message = requested
        var readPhases: [PhaseCost] = []
        if let append {
            let clock = ContinuousClock()
            let start = clock.now
            let reading = TagPipeline.read(on: recorder, activation: detected, families: families)
            readPhases = [
                PhaseCost(
                    name: "read", exchanges: recorder.exchanges, reactivations: recorder.reactivations,
                    airtimeMicroseconds: nil, wallSeconds: (clock.now - start).seconds)
            ]
            do {
                (message, outcome.original) = try append.combine(reading, new: requested)
                outcome.message = message
            } catch let failure as CycleFailure {
                outcome.failure = (failure.failureClass.rawValue, failure.detail)
                outcome.phases = readPhases
                return outcome
            } catch {
                let failure = CycleFailure(classifying: error, phase: .identify)
                outcome.failure = (failure.failureClass.rawValue, failure.detail)
                outcome.phases = readPhases
                return outcome
            }
        }
        let writesBefore = recorder.writes.count
        let plan = TagPipeline.Plan(message: message, acceptedChips: [], lock: lock, uid: detected.uid)
        let result = TagPipeline.run(plan, on: recorder, activation: detected, families: families)
        outcome.chip = result.chip
        outcome.capacity = result.capacity
        let lockWrites = result.phaseCosts[.lock]?.writes ?? 0
        let writes = recorder.writes.dropFirst(writesBefore)
        if let written = result.written {
            outcome.writtenPages = written.writtenPages
            outcome.skippedPages = written.skippedPages
        } else {
            // A failed write still reports every page it wrote (acknowledged WRITEs, in order).
            outcome.writtenPages = writes.dropLast(lockWrites).map(\.page)
        }
        outcome.lockWrites = writes.suffix(lockWrites).map { LockCommand.PageWrite(page: $0.page, data: $0.data) }
        if let failure = result.failure { outcome.failure = (failure.failureClass.rawValue, failure.detail) }
        outcome.phases = readPhases + PhaseCost.phases(of: result)
        return outcome
    }

    private static func report(
        _ message: NDEFMessage, session: TagSession, outcome: Outcome, lock: Bool, wallSeconds: Double,
        output out: Output
    ) {
        if let original = outcome.original {
            out.line(
                "Original  \(original.isEmpty ? "(empty)" : Hex.string(original)) — \(original.count) bytes, "
                    + "the message the tag held before --append (to restore it: provision write with this message)")
        }
        let message = outcome.message.flatMap { try? NDEFMessage(bytes: $0) } ?? message
        let bytes = message.bytes
        out.line(
            "Message   \(bytes.count) bytes, \(message.records.count) record\(message.records.count == 1 ? "" : "s")")
        for (index, record) in message.records.enumerated() {
            out.line("  " + record.summaryLine(index: index))
        }
        let chip = outcome.chip?.displayName ?? "generic Type 2"
        out.line("Tag       \(session.uidHex) on \(session.reader.name), \(chip), capacity \(outcome.capacity) bytes")
        if let failure = outcome.failure {
            out.line("Outcome   FAILED \(failure.failureClass): \(failure.message)")
        } else {
            out.line("Outcome   written and verified" + (lock ? ", locked permanently (read-only confirmed)" : ""))
        }
        // Pages, blocks or NDEF file offsets, as the family's write unit says (with its command, where it names one).
        let unit = TagFamilies.standard.named(outcome.chip?.family)?.writeUnit
        let type4 = unit == .fileOffset
        func name(_ unit: Int) -> String { type4 ? String(format: "%04Xh", unit) : InspectCommand.pageName(unit) }
        let pages = outcome.writtenPages.map(name).joined(separator: " ")
        let unchanged = outcome.skippedPages.map(name).joined(separator: " ")
        let label = type4 ? "Offsets   written " : unit == .block ? "Blocks    written " : "Pages     written "
        let suffix = unit?.writeCommandNote.map { pages.isEmpty ? "" : " (\($0))" } ?? ""
        out.line(
            label + (pages.isEmpty ? "none" : pages) + (unchanged.isEmpty ? "" : "; unchanged \(unchanged)") + suffix)
        for write in outcome.lockWrites { out.line("Lock      \(write.line)") }
        out.line("Phases")
        let phases = outcome.phases
        for phase in phases + [PhaseCost.sum(phases)] { out.line("  " + phase.line) }
        out.line(String(format: "Wall time %.1f ms (waiting for the tag included)", wallSeconds * 1000))
    }
}
