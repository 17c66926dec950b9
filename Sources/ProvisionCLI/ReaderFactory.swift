import NFCTags
import Provisioning
import ReaderLibNFC
import ReaderPCSC
import Synchronization
import TagEmulator

/// Turns reader spec strings into reader actors: the one place the CLI knows every backend.
enum ReaderFactory {
    /// The default when neither `--reader` nor the manifest names one.
    static let defaultSpec = "sim:" + SimulationOptions.defaultChip.rawValue

    /// The simulated reader a job runs on when it names none: the job's own chip.
    static func defaultSpec(for target: TagTarget) -> String { "sim:\(target.simulatorChip)" }

    /// Reader spec help shared by every command that takes `--reader`.
    static let specHelp = """
        Reader specs (--reader SPEC, repeatable where a command runs several readers):
          sim[:CHIP][?options]   the built-in simulated reader (default: \(defaultSpec))
        \(simulatorChipHelp)
              count=N       tags presented one after another (default unlimited)
              uid=HEX       first UID in the chip's form: 14 hex digits (Type 2, Type 4), the IDm's 16
                            as given (Type 3), 16 starting E0 (Type 5); later tags count up (default
                            from seed)
              seed=N        seed for UIDs and faults, so runs repeat (default 0)
              timing=MODE   instant (airtime only accounted, default) | datasheet (really wait)
              prog=MS       EEPROM programming time per page in ms (default 4.1)
              faults=LIST   per-tag probabilities kind:p, comma-separated, kinds:
                            tear nak5 noanswer readonly unformatted wrongchip multi clone
              plan=LIST     scheduled misbehaviour, entry i for the i-th tag: KIND@N or '-';
                            KIND garbage:N short:N long:N nak:C sw:XXXX (Type 4) silence, at its N-th command
              identity=LIST clone tags, entry i for the i-th tag: '-' (genuine), uid (pages 0–1
                            hold another UID than anticollision), bcc0, bcc1 (wrong BCC), int (INT 00)
              store=DIR     keep each tag's image as DIR/<UID>.bin across runs
              removal=MS    modelled time for the operator to take a tag away (default 0)
              config=next|immediate  locks=immediate|next  wrongpwd=nak|silence
              unknown=nak|silence    rfui=ignore|store   (chip behaviours still open in the datasheets)
              signer=HEX    private key the tags sign their originality signature with (default: the
                            repository's test key of the chip): secp128r1, 32 hex digits (Type 2,
                            READ_SIG); secp224r1, 56 hex digits (Type 4, Read_Sig); another key
                            simulates chips from an untrusted source
              Type 4 only: size=N mapping=2|3 mle=N mlc=N (sim:type4: NDEF file bytes, T4T mapping,
                            frame limits the CC announces; default 2048, 2, 246, 246), fwi=N (ATS
                            frame waiting integer), wtx=on (the tag asks for waiting-time extensions);
                            prog= is then per write frame; faults tear noanswer readonly unformatted
                            wrongchip (a Type 2 chip arrives) multi
              Type 3 only: refused=XXXX missing=XXXX (SF1 SF2 of a refused write, of a missing block;
                            default 01A5, 01A8), readservice=any|000B, wcnt=on|off, wildcard=88B4|12FC
                            (behaviours the reference leaves unverified); prog= is per block write (3 ms)
              e.g. \(defaultSpec)?count=50&uid=04A00000000000&seed=7&timing=datasheet&faults=tear:0.02
          nfc[:CONNSTRING][?slack=MS][&baud=SPEED]  a libnfc device, e.g. nfc:pn532_uart:/dev/ttyUSB0;
                                 slack= adds host-link time to every tag timeout (default 50 ms);
                                 baud= (pn532_uart) raises the UART first, e.g. baud=921600
          pcsc[:NAME|#N|*]       a PC/SC reader by exact name, index, or every reader (pcsc:*)

        """

    /// The `CHIP:` lines of `specHelp`, one a family, generated from the simulator names the families publish
    /// (`ChipDescriptor.simulatorName`, `SimulationOptions.chipNames`) so that no chip it takes can be missing
    /// from a command's help.
    static var simulatorChipHelp: String {
        TagFamilies.standard.families.compactMap { family -> String? in
            let chips = family.descriptors.compactMap(\.simulatorName)
            return chips.isEmpty ? nil : "\(chips.joined(separator: " | ")) (\(family.displayName))"
        }.enumerated().map { index, line in (index == 0 ? "      CHIP: " : "            ") + line }
            .joined(separator: "\n")
    }

    /// Opens every spec (a `pcsc:*` spec may open several readers).
    ///
    /// - Throws: `CLIError` with exit 64 for a malformed spec, 69 when a reader is unavailable.
    static func open(_ specs: [String]) async throws(CLIError) -> [any TagReader] {
        var readers: [any TagReader] = []
        for text in specs {
            let spec: ReaderSpec
            do {
                spec = try ReaderSpec(text)
            } catch {
                throw ErrorTable.cliError(error, message: error.description)
            }
            readers += try await open(spec)
        }
        return readers
    }

    private static func open(_ spec: ReaderSpec) async throws(CLIError) -> [any TagReader] {
        switch spec.scheme {
        case "sim":
            do {
                return [try SimulatedReader(spec: spec)]
            } catch {
                throw ErrorTable.cliError(error, message: error.description)
            }
        case "nfc":
            do {
                return [try await LibNFCReader.open(spec: spec)]
            } catch let error as LibNFCError {
                throw ErrorTable.cliError(error, message: "reader '\(spec.text)': \(error.message)")
            } catch {
                throw ErrorTable.cliError(ReaderFailure(.cannotOpen, "reader '\(spec.text)': \(error)"))
            }
        case "pcsc":
            do {
                return try await PCSCReader.open(spec: spec)
            } catch {
                throw ErrorTable.cliError(error, message: error.message)
            }
        default:
            if let open = registered.withLock({ $0[spec.scheme]?.open }) {
                do {
                    return try open(spec)
                } catch let error as ReaderSpecError {
                    throw ErrorTable.cliError(error, message: error.description)
                } catch {
                    throw .usage("reader '\(spec.text)': \(error)")
                }
            }
            throw .usage("reader '\(spec.text)': unknown backend '\(spec.scheme)' (use sim, nfc or pcsc)")
        }
    }

    /// Reader backends added at start-up (`ProvisionCLI.registerReaderBackend`), by spec scheme, with whether
    /// they present simulated tags.
    static let registered = Mutex<[String: (open: ProvisionCLI.ReaderOpener, simulated: Bool)]>([:])

    /// Whether the reader spec `text` presents simulated tags (`sim:`, or a registered simulated backend): the one
    /// test of "not a real line" (test keys are refused on any other reader).
    static func isSimulated(_ text: String) -> Bool {
        let scheme = String(text.prefix { $0 != ":" && $0 != "?" })
        return scheme == "sim" || registered.withLock { $0[scheme]?.simulated ?? false }
    }
}

extension ProvisionCLI {
    /// Opens the readers of one spec of a registered backend; a thrown error is the spec's usage error (64).
    public typealias ReaderOpener = @Sendable (ReaderSpec) throws -> [any TagReader]

    /// Adds a reader backend for specs `scheme:…` (not `sim`, `nfc` or `pcsc`): how an executable that links more
    /// than `provision` ships (a test's) presents its own tags to every command; `simulated` says its tags are not
    /// a real line's (test keys are allowed on them, as on `sim:`). Register before `run`.
    public static func registerReaderBackend(
        _ scheme: String, simulated: Bool = false, open: @escaping ReaderOpener
    ) {
        ReaderFactory.registered.withLock { $0[scheme] = (open, simulated) }
    }
}
