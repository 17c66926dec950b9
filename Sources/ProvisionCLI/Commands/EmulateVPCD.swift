import Dispatch
import Foundation
import NFCTags
import TagEmulator

/// `provision emulate vpcd`: a virtual contactless card (Type 2, Type 4 or Type 5 tags) for pcscd's vsmartcard
/// `vpcd` driver.
enum EmulateVPCD {
    static let help = """
        Usage: provision emulate vpcd [--port 35963] [--host 127.0.0.1] [--tags SPEC]
                                      [--reader-style STYLE] [--control SOCKET]
                                      [--misbehave LIST]

        Presents emulated tags to a running pcscd through the vsmartcard vpcd driver (one reader slot
        per process; slot s of a reader.conf entry listens on CHANNELID + s). Type 2 tags
        (\(ChipLists.simulatorSpecs(Type2Family.name)))
        get the PC/SC storage-card ATR; the card answers FF CA (UID), FF B0 (read) and FF D6 (update),
        and raw tag commands the way the chosen reader family does: ACR122U direct transmit
        (FF 00 00 00 .. D4 42 ..), ACR1252U transparent exchange (FF C2 ..), or none (plain).
        Type 4 tags (\(ChipLists.simulatorSpecs(Type4Family.name))) get the ISO 14443-4 ATR
        3B 8n 80 01 <ATS historical bytes> TCK; FF CA 00 gives the UID, FF CA 01 the ATS, and ISO 7816
        APDUs (CLA other than FF) reach the tag unchanged on every style. Type 5 tags
        (\(ChipLists.simulatorSpecs(Type5Family.name)))
        get the ISO 15693 ATR 3B 8F 80 01 80 4F 0C A0 00 00 03 06 0B NN NN 00 00 00 00 TCK;
        FF CA 00 gives the UID (air order on acr*, E0 first on omnikey and storage), FF B0/FF D6 read
        and write one block (block number in P2 on acr*, in P1 on omnikey and storage), and the
        acr1552u and omnikey styles carry raw ISO 15693 requests in FF C2 (a write needs the timer
        object 5F 46, or it times out with C0 03 xx 64 01). Runs until SIGINT, SIGTERM or 'quit' on
        the control socket.

          --port N             vpcd slot port (default 35963, the stock entry's first slot)
          --host ADDR          vpcd address (default 127.0.0.1)
          --tags SPEC          tag population, e.g.
                               \(ReaderFactory.defaultSpec)?count=20&uid=04A1B2C3D4E5F6&store=DIR&line
                               (line: a tag the host used and powered off leaves, the next arrives);
                               any sim: chip (CHIP in 'provision readers --help'; Type 4: size=, mle=,
                               mlc=)
          --reader-style S     acr122u (default), acr1252u, acr1552u, omnikey, storage or plain
          --control SOCKET     unix socket taking one command per line:
                               insert [UID], remove, dump, stats, feedback, quit
          --misbehave LIST     the card answers APDUs wrongly: entry i is for the i-th tag, KIND@N (its
                               N-th APDU) or '-'; KIND sw:XXXX (only that status word), short (last
                               data byte lost), malformed (2 bytes after the SW), empty (zero-length
                               frame: card gone), drop (socket closed, no answer); the tag comes back
                               after empty and drop. Tag-level misbehaviour: plan= in the --tags spec

        Example:
          provision emulate vpcd --tags '\(ReaderFactory.defaultSpec)?count=50&line' --control /tmp/vpcd.sock
          provision emulate vpcd --tags 'sim:\(ChipLists.keyedSimulatorName)?count=10&line' --port 35964
          provision emulate vpcd --tags 'sim:type5?count=10&line' --reader-style acr1552u

        """

    /// The parsed options of `provision emulate vpcd`.
    struct Options: Sendable {
        /// `--port N` (default 35963).
        var port = 35963
        /// `--host ADDR` (an IPv4 address, default 127.0.0.1).
        var host = "127.0.0.1"
        /// `--tags SPEC` (default `ReaderFactory.defaultSpec`).
        var tags = ReaderFactory.defaultSpec
        /// `--reader-style` (default `acr122u`).
        var style = VPCDReaderStyle.acr122u
        /// `--control SOCKET`.
        var control: String?
        /// `--misbehave LIST`.
        var misbehave: String?

        /// Parses the arguments after `vpcd`.
        ///
        /// - Throws: `CLIError` 64 naming the option.
        init(_ arguments: [String]) throws(CLIError) {
            let options = try Arguments(
                arguments, flags: [], options: ["port", "host", "tags", "reader-style", "control", "misbehave"])
            try options.requirePositionals(0...0, usage: "provision emulate vpcd [options]")
            port = try options.integer("port", in: 1...65535) ?? port
            let styleName = options.value("reader-style") ?? "acr122u"
            guard let style = VPCDReaderStyle(rawValue: styleName) else {
                throw CLIError.usage(
                    "--reader-style must be one of \(styleNames), got '\(styleName)'", option: "reader-style")
            }
            self.style = style
            host = options.value("host") ?? host
            var address = in_addr()
            guard inet_pton(AF_INET, host, &address) == 1 else {
                throw CLIError.usage("--host must be an IPv4 address such as 127.0.0.1, got '\(host)'", option: "host")
            }
            tags = options.value("tags") ?? tags
            _ = try population(tags)
            control = options.value("control")
            misbehave = options.value("misbehave")
        }
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let port = options.port
        let style = options.style
        let (simulation, lineMode) = try population(options.tags)
        var configuration = VPCDConfiguration(
            host: options.host, port: UInt16(port), style: style,
            controlPath: options.control.map { context.url(forPath: $0).path }, lineMode: lineMode)
        if let text = options.misbehave {
            do {
                configuration.misbehaviour = try FaultPlan(parsing: text, kind: VPCDMisbehaviour.parse).byUID(
                    simulation.uid(at:))
            } catch {
                throw CLIError.usage("--misbehave: \(error); kinds are \(VPCDMisbehaviour.kinds)", option: "misbehave")
            }
        }
        let card: VPCDVirtualTag
        do {
            card = try VPCDVirtualTag.start(configuration) { VPCDFieldSource(options: simulation) }
        } catch {
            throw CLIError(.unavailable, "cannot start the vpcd card: \(error)")
        }
        context.output.line("vpcd: card for \(configuration.host):\(port), style \(style.rawValue)")
        let reason = await waitForTerminationOrQuit(card)
        let stats = await card.command("stats")
        await card.stop()
        context.output.diagnostics.line(
            "vpcd: stopped (\(reason)); " + (stats.split(separator: "\n").first.map(String.init) ?? ""))
        return .success
    }

    /// The `--reader-style` names, for messages.
    static var styleNames: String { VPCDReaderStyle.allCases.map(\.rawValue).joined(separator: ", ") }

    /// Parses the `--tags` spec; `line` is this front end's option, the rest goes to the chip model.
    static func population(_ text: String) throws(CLIError) -> (SimulationOptions, Bool) {
        do {
            var spec = try ReaderSpec(text)
            let line = spec.option("line").map { $0 != "false" && $0 != "off" } ?? false
            spec.options.removeAll { $0.key == "line" }
            return (try SimulationOptions(spec: spec), line)
        } catch {
            throw CLIError.usage("--tags: \(error)", option: "tags")
        }
    }

    /// Waits for SIGINT, SIGTERM (`Interrupts`) or the card stopping by itself (`quit`).
    private static func waitForTerminationOrQuit(_ card: VPCDVirtualTag) async -> String {
        let number = await Interrupts.waitForTermination { await card.waitUntilStopped() }
        return number.map { "signal \($0)" } ?? "quit"
    }
}
