import Foundation
import NDEF
import NFCTags
import Provisioning

/// `provision lock`: makes one tag permanently read-only, after confirmation.
struct LockCommand: Command {
    static let name = "lock"
    static let stopsBetweenTags = true
    static let summary = "permanently lock one tag (asks for confirmation unless --yes)"
    static let help = """
        Usage: provision lock [--reader SPEC] [--yes] [--timeout SECONDS] [--json]

        Waits for one tag and makes it permanently read-only, the chip-correct way
        (docs/reference/type2.md §5.7): CC3 to 0F first (only on an NDEF capability container; never the
        proprietary 08/88 values that phones refuse), the static lock bytes FF FF, then every lock and
        block-lock bit of the dynamic lock page named by GET_VERSION:
        \(dynamicLockList)
        It then re-activates the tag, reads the lock pages back, and prints the exact bytes written per
        page. This cannot be undone.

        Without --yes it shows the tag and asks on standard input: type LOCK to continue; any other
        answer writes nothing and exits 1.

        Options:
          --reader SPEC      the reader (default \(ReaderFactory.defaultSpec))
          --yes              do not ask for confirmation
          --timeout SECONDS  how long to wait for a tag (default 30); none → exit 69
          --json             print one JSON object (stable, version 2, docs/json.md): version, reader,
                             uid, unit_kind page|block, outcome locked|failed|notConfirmed,
                             failure_class, failure_message, writes [{unit, data}], read_back
                             [{unit, data}], phases (last: total);
                             the prompt goes to stderr as always; when no tag was reached (no reader,
                             no tag in time) {"error": {...}} instead

        Examples:
          provision lock
          provision lock --reader '\(ReaderFactory.defaultSpec)?store=tags&uid=04A1B2C3D4E5F6' --yes
          echo LOCK | provision lock --reader nfc:pn532_uart:/dev/ttyUSB0

        Exit codes: 0 locked and confirmed, 1 not confirmed or the lock failed (lockFailed, tagLost,
        nak, …), 64 usage, 69 no tag / no reader, 130 Ctrl-C (the tag in progress finishes first).

        \(ReaderFactory.specHelp)
        """

    /// The Type 2 chips' dynamic lock pages and the bits the lock sets, from the chip model (`ChipModel`).
    static var dynamicLockList: String {
        ChipModel.allCases.compactMap { model in
            model.dynamicLockPage.map { page in
                "  \(model.displayName): page \(Hex.byte(UInt8(page)))h, " + Hex.string(model.dynamicLockAllBits ?? [])
            }
        }.joined(separator: "\n")
    }

    /// One acknowledged WRITE `A2h` of the lock sequence.
    struct PageWrite: Sendable, Hashable {
        /// The page written.
        var page: Int
        /// The 4 data bytes sent.
        var data: [UInt8]

        /// `page 03h: E1 10 3E 0F`.
        var line: String { "page \(InspectCommand.pageName(page)): \(Hex.string(data))" }
    }

    /// What the lock did.
    struct Outcome: Sendable {
        var writes: [PageWrite] = []
        var readBack: [(page: Int, data: [UInt8])] = []
        var phases: [PhaseCost] = []
        var failure: (failureClass: String, message: String)?
    }

    /// `--reader SPEC` (default `ReaderFactory.defaultSpec`).
    var reader: String?
    /// `--yes`: do not ask for confirmation.
    var yes = false
    /// `--json`: print the stable object instead of text.
    var json = false
    /// `--timeout SECONDS`: how long to wait for a tag.
    var timeout: Duration

    static func parse(_ arguments: [String]) throws(CLIError) -> LockCommand {
        let args = try Arguments(arguments, flags: ["yes", "json"], options: ["reader", "timeout"])
        try args.requirePositionals(0...0, usage: "provision lock [--reader SPEC] [--yes] [--json]")
        return LockCommand(
            reader: args.value("reader"), yes: args.flag("yes"), json: args.flag("json"), timeout: try args.timeout())
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let output = context.output
        let reader = try await TagSession.openReader(spec: self.reader)
        let confirmed = yes
        let (uid, unit, outcome) = try await TagSession.withTag(
            on: reader, timeout: timeout, context: context, identify: !confirmed
        ) { session -> (String, TagWriteUnit, Outcome?) in
            if !confirmed {
                let chip = session.chip?.displayName ?? "a generic \(session.family ?? "unknown") tag"
                output.diagnostics.write(
                    "About to lock tag \(session.uidHex) (\(chip)) on \(reader.name) PERMANENTLY: "
                        + "it can never be written again.\n" + "Type LOCK to continue: ")
                guard context.readStandardInputLine()?.trimmingCharacters(in: .whitespaces) == "LOCK" else {
                    return (session.uidHex, TagWriteUnit.of(session.detected), nil)
                }
            }
            let detected = session.detected
            let identifyCost = confirmed ? nil : session.identifyCost
            return (
                session.uidHex, TagWriteUnit.of(detected),
                try await reader.withTransceiver { transceiver in
                    var outcome = Self.perform(RecordingTransceiver(transceiver), detected: detected)
                    if let identifyCost { outcome.phases.insert(identifyCost, at: 0) }
                    return outcome
                }
            )
        }
        if json { try output.document(LockReport(reader: reader.name, uid: uid, unit: unit, outcome: outcome)) }
        guard let outcome else { throw CLIError(.failure, "not confirmed: nothing was written") }
        if !json {
            for write in outcome.writes { output.line("wrote     \(write.line)") }
            for page in outcome.readBack {
                output.line("read back page \(InspectCommand.pageName(page.page)): \(Hex.string(page.data))")
            }
            let phases = outcome.phases + [PhaseCost.sum(outcome.phases)]
            for phase in phases { output.line("  " + phase.line) }
        }
        if let failure = outcome.failure { throw CLIError(.failure, "\(failure.failureClass): \(failure.message)") }
        if !json { output.line("locked    the tag is permanently read-only (confirmed by read-back)") }
        return .success
    }

    /// The pipeline's lock-only plan on the reader's queue: identify (with the identity cross-check), the
    /// chip-correct lock and its read-back; tag failures end up in `failure`.
    static func perform(
        _ recorder: RecordingTransceiver, detected: DetectedTag, families: TagFamilies = .standard
    ) -> Outcome {
        let plan = TagPipeline.Plan(message: [], acceptedChips: [], lock: true, uid: detected.uid, mode: .lockOnly)
        let result = TagPipeline.run(plan, on: recorder, activation: detected, families: families)
        var outcome = Outcome()
        outcome.readBack = result.lockReadBack.map { ($0.unit, $0.bytes) }
        if let failure = result.failure { outcome.failure = (failure.failureClass.rawValue, failure.detail) }
        outcome.writes = recorder.writes.map { PageWrite(page: $0.page, data: $0.data) }
        outcome.phases = PhaseCost.phases(of: result)
        return outcome
    }
}
