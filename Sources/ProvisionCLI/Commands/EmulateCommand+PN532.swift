import Dispatch
import Foundation
import NFCTags
import TagEmulator

extension EmulateCommand {
    /// `provision emulate pn532`: opens the pty, prints its path, serves until SIGINT/SIGTERM.
    static func runPN532(_ arguments: [String], context: CommandContext) async throws -> ExitCode {
        let flags: Set = ["line", "lenient-power", "select-sets-crc", "select-keeps-crc", "inselect-reqa"]
        let options = try Arguments(
            arguments, flags: flags,
            options: ["tags", "timing", "baud", "path-file", "control", "misbehave"])
        try options.requirePositionals(0...0, usage: "provision emulate pn532 [options]")
        if options.flag("select-sets-crc"), options.flag("select-keeps-crc") {
            throw CLIError.usage("--select-sets-crc and --select-keeps-crc exclude each other")
        }
        let field: PN532TagPopulation
        do {
            var spec = try ReaderSpec(options.value("tags") ?? "sim:ntag215")
            if options.flag("line"), spec.option("line") == nil { spec.options.append(("line", "true")) }
            field = try PN532TagPopulation(spec: spec)
        } catch {
            throw CLIError.usage("--tags: \(error)")
        }
        // Default: the spec's own timing= option, else instant.
        let specTiming = field.field.options.timing == .datasheet ? "datasheet" : "instant"
        guard let timing = PN532Emulator.Timing(rawValue: options.value("timing") ?? specTiming) else {
            throw CLIError.usage("--timing must be instant or datasheet")
        }
        let baud = try options.integer("baud", in: 1_200...4_000_000) ?? 115_200
        let controlPath = options.value("control").map { context.url(forPath: $0).path }
        let configuration = PN532Emulator.Configuration(
            timing: timing, baud: baud, controlSocketPath: controlPath, strictPower: !options.flag("lenient-power"),
            selectSetsCRC: !options.flag("select-keeps-crc"),
            inSelectWakesHalted: !options.flag("inselect-reqa"))
        let emulator: PN532Emulator
        do {
            emulator = try PN532Emulator(field: field, configuration: configuration)
        } catch {
            throw CLIError(.unavailable, "cannot start the PN532 emulator: \(error)")
        }
        let pathFile = options.value("path-file").map { context.url(forPath: $0) }
        if let pathFile {
            do {
                try Data((emulator.slavePath + "\n").utf8).write(to: pathFile)
            } catch {
                throw CLIError(.cannotCreate, "cannot write \(pathFile.path): \(error.localizedDescription)")
            }
        }
        if let text = options.value("misbehave") {
            do {
                emulator.misbehave(
                    try FaultPlan(parsing: text, kind: PN532Misbehaviour.parse), uid: field.field.options.uid(at:))
            } catch {
                throw CLIError.usage(
                    "--misbehave: \(error); kinds are "
                        + PN532Misbehaviour.allCases.map(\.rawValue).joined(separator: ", "))
            }
        }
        emulator.start()
        context.out.line(emulator.slavePath)
        let reason = await waitForTermination(or: emulator)
        emulator.stop()
        if let pathFile { try? FileManager.default.removeItem(at: pathFile) }
        let stats = emulator.stats
        context.err.line(
            "pn532: \(reason) after \(stats.frames) frames, \(stats.replies) replies, \(stats.misbehaved) misbehaved")
        return .success
    }

    /// Waits for SIGINT or SIGTERM (both are ignored by default while waiting), or for the emulator
    /// to vanish (`--misbehave vanish@N`).
    private static func waitForTermination(or emulator: PN532Emulator) async -> String {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { @Sendable in continuation.yield("stopped by signal \(number)") }
            source.resume()
            return source
        }
        let watcher = Task {
            while !Task.isCancelled, !emulator.hasVanished { try? await Task.sleep(for: .milliseconds(20)) }
            if emulator.hasVanished { continuation.yield("vanished as planned (--misbehave vanish)") }
        }
        var received = ""
        for await reason in stream {
            received = reason
            break
        }
        watcher.cancel()
        for source in sources { source.cancel() }
        return received
    }
}
