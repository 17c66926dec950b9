import Dispatch
import Foundation
import NFCTags
import TagEmulator

/// The parsed options of `provision emulate pn532`.
struct PN532Options: Sendable {
    /// `--tags SPEC` (default `ReaderFactory.defaultSpec`).
    var tags = ReaderFactory.defaultSpec
    /// `--line`.
    var line = false
    /// `--timing instant|datasheet`; `nil`: the spec's own timing.
    var timing: PN532Emulator.Timing?
    /// `--baud N`.
    var baud = 115_200
    /// `--path-file FILE`.
    var pathFile: String?
    /// `--control SOCKET`.
    var control: String?
    /// `--misbehave LIST`.
    var misbehave: String?
    /// `--lenient-power`.
    var lenientPower = false
    /// `--select-keeps-crc`.
    var selectKeepsCRC = false
    /// `--inselect-reqa`.
    var inSelectREQA = false

    /// Parses the arguments after `pn532`.
    ///
    /// - Throws: `CLIError` 64 naming the option.
    init(_ arguments: [String]) throws(CLIError) {
        let flags: Set = ["line", "lenient-power", "select-sets-crc", "select-keeps-crc", "inselect-reqa"]
        let options = try Arguments(
            arguments, flags: flags,
            options: ["tags", "timing", "baud", "path-file", "control", "misbehave"])
        try options.requirePositionals(0...0, usage: "provision emulate pn532 [options]")
        if options.flag("select-sets-crc"), options.flag("select-keeps-crc") {
            throw CLIError.usage(
                "--select-sets-crc and --select-keeps-crc exclude each other", option: "select-keeps-crc")
        }
        tags = options.value("tags") ?? tags
        guard try EmulateVPCD.population(tags).0.type5 == nil else {
            throw CLIError.usage(
                "--tags: a PN532 cannot reach ISO 15693 (Type 5) tags; serve them with 'emulate vpcd' or the "
                    + "in-process sim: reader", option: "tags")
        }
        if let text = options.value("timing") {
            guard let timing = PN532Emulator.Timing(rawValue: text) else {
                throw CLIError.usage("--timing must be instant or datasheet", option: "timing")
            }
            self.timing = timing
        }
        baud = try options.integer("baud", in: 1_200...4_000_000) ?? baud
        line = options.flag("line")
        pathFile = options.value("path-file")
        control = options.value("control")
        misbehave = options.value("misbehave")
        lenientPower = options.flag("lenient-power")
        selectKeepsCRC = options.flag("select-keeps-crc")
        inSelectREQA = options.flag("inselect-reqa")
    }
}

extension EmulateCommand {
    /// `provision emulate pn532`: opens the pty, prints its path, serves until SIGINT/SIGTERM.
    static func runPN532(_ options: PN532Options, context: CommandContext) async throws -> ExitCode {
        let field: PN532TagPopulation
        do {
            var spec = try ReaderSpec(options.tags)
            if options.line, spec.option("line") == nil { spec.options.append(("line", "true")) }
            field = try PN532TagPopulation(spec: spec)
        } catch {
            throw CLIError.usage("--tags: \(error)", option: "tags")
        }
        // Default: the spec's own timing= option, else instant.
        let timing = options.timing ?? (field.field.options.timing == .datasheet ? .datasheet : .instant)
        let controlPath = options.control.map { context.url(forPath: $0).path }
        let configuration = PN532Emulator.Configuration(
            timing: timing, baud: options.baud, controlSocketPath: controlPath, strictPower: !options.lenientPower,
            selectSetsCRC: !options.selectKeepsCRC, inSelectWakesHalted: !options.inSelectREQA)
        let emulator: PN532Emulator
        do {
            emulator = try PN532Emulator(field: field, configuration: configuration)
        } catch {
            throw CLIError(.unavailable, "cannot start the PN532 emulator: \(error)")
        }
        let pathFile = options.pathFile.map { context.url(forPath: $0) }
        if let pathFile {
            do {
                try Data((emulator.slavePath + "\n").utf8).write(to: pathFile)
            } catch {
                throw CLIError(.cannotCreate, "cannot write \(pathFile.path): \(error.localizedDescription)")
            }
        }
        if let text = options.misbehave {
            do {
                emulator.misbehave(
                    try FaultPlan(parsing: text, kind: PN532Misbehaviour.parse), uid: field.field.options.uid(at:))
            } catch {
                throw CLIError.usage(
                    "--misbehave: \(error); kinds are "
                        + PN532Misbehaviour.allCases.map(\.rawValue).joined(separator: ", "), option: "misbehave")
            }
        }
        emulator.start()
        context.output.line(emulator.slavePath)
        let reason = await waitForTermination(or: emulator)
        emulator.stop()
        if let pathFile { try? FileManager.default.removeItem(at: pathFile) }
        let stats = emulator.stats
        context.output.diagnostics.line(
            "pn532: \(reason) after \(stats.frames) frames, \(stats.replies) replies, \(stats.misbehaved) misbehaved")
        return .success
    }

    /// Waits for SIGINT or SIGTERM (`Interrupts`), or for the emulator to vanish (`--misbehave vanish@N`).
    private static func waitForTermination(or emulator: PN532Emulator) async -> String {
        let number = await Interrupts.waitForTermination {
            while !Task.isCancelled, !emulator.hasVanished { try? await Task.sleep(for: .milliseconds(20)) }
        }
        return number.map { "stopped by signal \($0)" } ?? "vanished as planned (--misbehave vanish)"
    }
}
