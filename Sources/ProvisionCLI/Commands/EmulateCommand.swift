/// `provision emulate <device>`: runs a device emulator that unmodified host software talks to.
///
/// Sub-verbs: `vpcd` (a virtual card for pcscd's vpcd driver).
struct EmulateCommand: Command {
    static let name = "emulate"
    static let summary = "run a reader emulator (vpcd: a virtual card for pcscd)"
    static let help = EmulateVPCD.help

    static func run(_ arguments: [String], context: CommandContext) async throws -> ExitCode {
        guard let device = arguments.first else {
            throw CLIError.usage("missing device; usage: provision emulate vpcd [options]")
        }
        switch device {
        case "vpcd":
            return try await EmulateVPCD.run(Array(arguments.dropFirst()), context: context)
        default:
            throw CLIError.usage("unknown device '\(device)'; known: vpcd")
        }
    }
}
