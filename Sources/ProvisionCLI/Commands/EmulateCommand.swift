import NFCTags

/// `provision emulate <device>`: runs a device emulator that unmodified host software talks to.
///
/// Sub-verbs: `pn532` (a PN532 on a pseudo-terminal for libnfc) and `vpcd` (a virtual card for pcscd).
struct EmulateCommand: Command {
    static let name = "emulate"
    static let summary = "run a reader emulator (pn532 on a pty for libnfc; vpcd card for pcscd)"
    static let help = """
        Usage: provision emulate pn532 [--tags SPEC] [--timing instant|datasheet] [--baud 115200]
                                       [--path-file FILE] [--control SOCKET] [--line] [--lenient-power]
                                       [--select-keeps-crc] [--inselect-reqa] [--misbehave LIST]

        Serves a software PN532 (firmware 1.6) on a new pseudo-terminal and prints its path
        (/dev/pts/N); point libnfc at it with pn532_uart:/dev/pts/N. Runs until SIGINT or SIGTERM.

          --tags SPEC        tag population as a sim: spec (chip, count, uid, seed, faults, store=DIR…;
                             see the sim reader), e.g. \(ReaderFactory.defaultSpec)?count=20&faults=tear:0.05.
                             Type 4 (ISO-DEP) chips: \(ChipLists.simulatorSpecs(Type4Family.name))
                             (size=, mapping=, mle=, mlc=, fwi=, wtx=on on a generic T4T). The PN532
                             sends RATS itself when SetParameters asks for it (libnfc does) and
                             reports the ATS; APDUs then go through InDataExchange (MI chaining
                             both ways). A host that clears automatic RATS (nfcpy) gets the tag at
                             layer 3 and sends RATS and I-blocks through InCommunicateThru
          --line             line mode: a tag the host releases leaves, the next one arrives
                             (InRelease, or InDeselect not followed by InSelect; also accepted as
                             the spec option 'line')
          --timing MODE      instant or datasheet (UART byte time plus tag airtime); default: the
                             spec's timing= option, else instant
          --baud N           UART speed for the datasheet timing (default 115200); a host's
                             SetSerialBaudRate changes it (answered at the old speed, then switched)
          --lenient-power    accept any command right after reset (LowVbat) and after PowerDown
                             without a 55 wake-up, as hosts like nfcpy expect; default: strict
                             (only SAMConfiguration after reset)
          --select-keeps-crc a select keeps the host's CRC bits in TxMode/RxMode; default: it
                             switches CRC on both ways, as the PN532's SELECT needs and as nfcpy
                             relies on (--select-sets-crc, still accepted, names the default)
          --inselect-reqa    InSelect does not wake a target InDeselect halted (REQA instead of
                             WUPA; unverified on real firmware; default: it wakes it)
          --path-file FILE   also write the pty path to FILE (removed on exit)
          --control SOCKET   unix socket taking: insert [UID], remove, dump PATH, stats
          --misbehave LIST   the reader misbehaves on the replies to tag commands: entry i is for the
                             i-th tag, KIND@N (at its N-th tag command) or '-'; KIND dcs, lcs
                             (checksum inverted), truncate, wrongcode, nackstorm, noack, vanish (the
                             pty closes and the emulator exits); e.g. --misbehave 'dcs@2,-,vanish@5'.
                             The tags' own misbehaviour is the spec option plan= (see the sim reader)

        Examples:
          provision emulate pn532 --tags '\(ReaderFactory.defaultSpec)?count=5' --line --control /tmp/pn532.sock
          provision emulate pn532 --tags 'sim:\(ChipLists.keyedSimulatorName)?count=20&store=tags' --line

        """ + "\n" + EmulateVPCD.help

    /// The emulated device and its parsed options.
    enum Device: Sendable {
        /// `emulate pn532`.
        case pn532(PN532Options)
        /// `emulate vpcd`.
        case vpcd(EmulateVPCD.Options)
    }

    var device: Device

    static func parse(_ arguments: [String]) throws(CLIError) -> EmulateCommand {
        guard let device = arguments.first else {
            throw CLIError.usage("missing device; usage: provision emulate pn532|vpcd [options]")
        }
        let rest = Array(arguments.dropFirst())
        switch device {
        case "pn532":
            return EmulateCommand(device: .pn532(try PN532Options(rest)))
        case "vpcd":
            return EmulateCommand(device: .vpcd(try EmulateVPCD.Options(rest)))
        default:
            throw CLIError.usage("unknown device '\(device)'; known: pn532, vpcd")
        }
    }

    func run(context: CommandContext) async throws -> ExitCode {
        switch device {
        case .pn532(let options):
            return try await Self.runPN532(options, context: context)
        case .vpcd(let options):
            return try await EmulateVPCD.run(options, context: context)
        }
    }
}
