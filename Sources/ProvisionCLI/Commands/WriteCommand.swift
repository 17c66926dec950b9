import Foundation
import NDEF
import NFCTags
import Provisioning
import Support

/// `provision write`: writes one NDEF message to one tag, tear-safe, verified, optionally locked.
struct WriteCommand: Command {
    static let name = "write"
    static let summary = "write an NDEF message to one tag (verify, optional lock)"
    static let help = """
        Usage: provision write [--reader SPEC] [--lock] [--append [--replace]] [--timeout SECONDS] MESSAGE.json|-
               provision write [--reader SPEC] [--lock] [--append [--replace]] --uri URL
               provision write [--reader SPEC] [--lock] [--append [--replace]] --text TEXT [--lang en]

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
          --json             print one JSON object (stable, version 1): version, reader, uid, chip,
                             messageHex, messageBytes, capacity, outcome written|failed,
                             failureClass, failureMessage, locked, writtenPages, unchangedPages,
                             lockWrites [{page, data}], phases [{name, exchanges, writes,
                             reactivations, airtimeMicroseconds, wallSeconds}] (last: total),
                             wallSeconds; a failed tag still exits 1

        Record JSON is the format of 'provision ndef' (see 'provision ndef --help'), e.g.
          {"records": [{"type": "uri", "uri": "https://example.com"}]}

        A tag that cannot take the message ends with exit 1 and the failure class:
          notNDEF (no NDEF capability container/TLV), readOnly (locked, CC read-only or password-
          protected), capacity (message too large), verifyMismatch, lockFailed, tagLost, timeout,
          nak, transport.

        Examples:
          provision write --uri https://example.com
          provision write --reader 'sim:ntag213?store=tags&uid=04A1B2C3D4E5F6' message.json
          echo '[{"type":"text","text":"Hello"}]' | provision write - --lock

        Exit codes: 0 written (and locked), 1 the tag failed (class printed), 64 usage, 65 bad
        record JSON (the JSON path is named), 66 missing message file, 69 no tag / no reader.

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
    }

    static func run(_ arguments: [String], context: CommandContext) async throws -> ExitCode {
        let args = try Arguments(
            arguments, flags: ["lock", "json", "append", "replace"],
            options: ["reader", "uri", "text", "lang", "timeout"])
        if args.flag("replace") && !args.flag("append") { throw CLIError.usage("--replace only goes with --append") }
        let append: AppendRequest? = args.flag("append") ? AppendRequest(replace: args.flag("replace")) : nil
        let message = try buildMessage(args, context: context)
        let timeout = try TagSession.timeout(args)
        let reader = try await TagSession.openReader(spec: args.value("reader"))
        let bytes = message.bytes
        let lock = args.flag("lock")
        let clock = ContinuousClock()
        let start = clock.now
        let (session, outcome) = try await TagSession.withTag(on: reader, timeout: timeout, context: context) {
            session in
            let identity = session.identity
            let outcome = try await reader.withTransceiver { transceiver in
                perform(
                    Type2Tag(transceiver: RecordingTransceiver(transceiver), identity: identity), message: bytes,
                    lock: lock, uid: session.detected.uid, append: append)
            }
            return (session, outcome)
        }
        let wallSeconds = (clock.now - start).seconds
        if args.flag("json") {
            let json = WriteReport(
                message: outcome.message ?? bytes, session: session, outcome: outcome, lock: lock,
                wallSeconds: wallSeconds)
            context.out.line(try json.encoded())
        } else {
            report(message, session: session, outcome: outcome, lock: lock, wallSeconds: wallSeconds, context: context)
        }
        if let failure = outcome.failure { throw CLIError(.failure, "\(failure.failureClass): \(failure.message)") }
        return .success
    }

    /// The message from `--uri`, `--text` or the record JSON file (`-`: standard input).
    static func buildMessage(_ args: Arguments, context: CommandContext) throws(CLIError) -> NDEFMessage {
        let usage = "provision write [--lock] MESSAGE.json|- | --uri URL | --text TEXT [--lang en]"
        let sources = [args.value("uri") != nil, args.value("text") != nil, !args.positionals.isEmpty].filter { $0 }
        guard sources.count == 1 else {
            throw .usage(
                sources.isEmpty
                    ? "no message given; usage: \(usage)"
                    : "give exactly one of MESSAGE.json, --uri, --text; usage: \(usage)")
        }
        if args.value("lang") != nil && args.value("text") == nil { throw .usage("--lang only goes with --text") }
        if let uri = args.value("uri") {
            guard !uri.isEmpty else { throw .usage("--uri needs a URL") }
            return NDEFMessage(records: [.uri(uri)])
        }
        if let text = args.value("text") {
            do {
                return NDEFMessage(records: [try .text(text, languageCode: args.value("lang") ?? "en")])
            } catch {
                throw .usage("--lang: \(error.message)")
            }
        }
        try args.requirePositionals(1...1, usage: usage)
        let path = args.positionals[0]
        let data = try NDEFCommand.readInput(path, context: context)
        do {
            return try RecordJSON.decode(data)
        } catch {
            throw CLIError.data("\(path == "-" ? "standard input" : path): \(error.description)")
        }
    }

    /// Check → write → verify → (lock), on the reader's queue.
    ///
    /// The check includes the identity cross-check of `type2-ntag.md` §11 that `run` makes (`uid` is
    /// the anticollision UID): a clone is refused as `identityMismatch` before any WRITE. Tag failures
    /// end up in `failure` with their class; the phases done so far are kept.
    static func perform(
        _ tag: Type2Tag, message requested: [UInt8], lock: Bool, uid: [UInt8], append: AppendRequest? = nil
    ) -> Outcome {
        var message = requested
        let meter = PhaseMeter(tag)
        var outcome = Outcome()
        let recorder = tag.transceiver as? RecordingTransceiver
        var writesBeforeWrite: Int?
        do {
            let mask = try meter.run("check") { () throws -> [Range<Int>] in
                var configuration: Type2Configuration?
                if tag.chip != nil {
                    configuration = try tag.readConfiguration()
                    try tag.readHeader()  // pages 0–4 in one FAST_READ: identity bytes, CC, TLV head
                }
                let anomalies = IdentityCheck.refusable(
                    try tag.identityAnomalies(anticollisionUID: uid.count == 7 ? uid : nil), chip: tag.chip,
                    uid0: tag.cachedPage(0)?.first)
                if !anomalies.isEmpty { throw IdentityCheck.failure(anomalies) }
                let (status, capacity) = try tag.queryNDEFStatus()
                outcome.capacity = capacity
                switch status {
                case .notSupported:
                    let cc = tag.cachedPage(3).map { Hex.string($0) } ?? "unreadable"
                    throw Type2Error(.notNDEF, "the tag is not NDEF formatted (CC \(cc)); format it first")
                case .readOnly:
                    throw Type2Error(.readOnly, "the tag is read-only (CC or lock bits)")
                case .readWrite:
                    break
                }
                if let append {
                    (message, outcome.original) = try append.combine(tag, status: status, new: message)
                    outcome.message = message
                }
                if let chip = tag.chip, let configuration, configuration.isPasswordProtected(on: chip) {
                    throw Type2Error(
                        .readOnly,
                        "pages from \(InspectCommand.pageName(Int(configuration.auth0))) need a password (AUTH0); "
                            + "this command has none"
                    )
                }
                guard message.count <= capacity else {
                    throw Type2Error(
                        .capacity, "the message has \(message.count) bytes; this tag holds at most \(capacity)")
                }
                return configuration.map(mirrorMask) ?? []
            }
            writesBeforeWrite = recorder?.writes.count
            let result = try meter.run("write") { try tag.writeNDEF(message) }
            outcome.writtenPages = result.writtenPages
            outcome.skippedPages = result.skippedPages
            try meter.run("verify") { try tag.verify(result, ignoring: mask) }
            if lock {
                let before = (tag.transceiver as? RecordingTransceiver)?.writes.count ?? 0
                try meter.run("lock") {
                    try tag.writeLock()
                    let (status, _) = try tag.queryNDEFStatus()
                    guard status == .readOnly else {
                        throw Type2Error(.lockFailed, "the tag still reports NDEF status \(status) after locking")
                    }
                }
                let writes = (tag.transceiver as? RecordingTransceiver)?.writes ?? []
                outcome.lockWrites = writes.dropFirst(before).map {
                    LockCommand.PageWrite(page: $0.page, data: $0.data)
                }
            }
        } catch let failure as CycleFailure {
            outcome.failure = (failure.failureClass.rawValue, failure.detail)
        } catch {
            // A failed write still reports every page it wrote (acknowledged WRITEs, in order).
            if let writesBeforeWrite, outcome.writtenPages.isEmpty, let recorder {
                outcome.writtenPages = recorder.writes.dropFirst(writesBeforeWrite).map(\.page)
            }
            let phase: Phase =
                switch meter.phases.last?.name {
                case "write": .write
                case "verify": .verify
                case "lock": .lock
                default: .identify
                }
            let failure = CycleFailure(classifying: error, phase: phase)
            outcome.failure = (failure.failureClass.rawValue, failure.detail)
        }
        outcome.phases = meter.phases
        return outcome
    }

    /// The UID/counter mirror window (`type2-ntag.md` §6): READ answers show ASCII there, not EEPROM.
    static func mirrorMask(_ configuration: Type2Configuration) -> [Range<Int>] {
        let conf = configuration.mirror >> 6
        guard conf != 0, configuration.mirrorPage >= 4 else { return [] }
        let length = conf == 1 ? 14 : conf == 2 ? 6 : 21
        let start = Int(configuration.mirrorPage) * 4 + Int(configuration.mirror >> 4 & 0x03)
        return [start..<start + length]
    }

    private static func report(
        _ message: NDEFMessage, session: TagSession, outcome: Outcome, lock: Bool, wallSeconds: Double,
        context: CommandContext
    ) {
        let out = context.out
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
            out.line("  " + NDEFCommand.describe(record, index: index))
        }
        let chip = session.identity.chip?.displayName ?? "generic Type 2"
        out.line("Tag       \(session.uidHex) on \(session.reader.name), \(chip), capacity \(outcome.capacity) bytes")
        if let failure = outcome.failure {
            out.line("Outcome   FAILED \(failure.failureClass): \(failure.message)")
        } else {
            out.line("Outcome   written and verified" + (lock ? ", locked permanently (read-only confirmed)" : ""))
        }
        let pages = outcome.writtenPages.map(InspectCommand.pageName).joined(separator: " ")
        out.line(
            "Pages     written \(pages.isEmpty ? "none" : pages)"
                + (outcome.skippedPages.isEmpty
                    ? "" : "; unchanged \(outcome.skippedPages.map(InspectCommand.pageName).joined(separator: " "))"))
        for write in outcome.lockWrites { out.line("Lock      \(write.line)") }
        out.line("Phases")
        let phases = [session.identifyCost] + outcome.phases
        for phase in phases + [PhaseCost.sum(phases)] { out.line("  " + phase.line) }
        out.line(String(format: "Wall time %.1f ms (waiting for the tag included)", wallSeconds * 1000))
    }
}
