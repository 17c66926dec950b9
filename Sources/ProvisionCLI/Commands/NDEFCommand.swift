/// `provision ndef encode|decode`: the NDEF codec on the command line (placeholder until the NDEF issue lands).
struct NDEFCommand: Command {
    static let name = "ndef"
    static let summary = "encode record JSON to NDEF bytes, or decode NDEF bytes"
    static let help = """
        Usage: provision ndef encode [FILE|-] [--binary] [--tlv]
               provision ndef decode [FILE|-] [--binary] [--tlv] [--json]

        """

    static func run(_ arguments: [String], context: CommandContext) async throws -> ExitCode {
        throw CLIError(.unavailable, "ndef is not implemented yet")
    }
}
