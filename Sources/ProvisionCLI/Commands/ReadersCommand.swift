import Foundation
import Reports

/// `provision readers`: the readers each backend can see.
struct ReadersCommand: Command {
    static let name = "readers"
    static let summary = "list the readers each backend can see (the simulator always)"
    static let help = """
        Usage: provision readers [--json]

        Lists every reader the backends can see, with the --reader spec that opens it: the built-in
        simulator always (one entry per simulated chip the tag families publish), libnfc devices and
        PC/SC readers when those backends are available, each with the tag families it reaches (those
        whose transport the backend speaks) and how it reaches Type 5 (ISO 15693). A libnfc reader
        \(ReaderListing.libnfcLimits).
        Unavailable backends are listed with the reason.

        Options:
          --json   print {"version": 2, "readers": [{backend, spec, name, note, available, reaches,
                   type5}]} (stable, docs/json.md); reaches lists the tag families the
                   reader path can program (type2, type3, type4, type5); type5 says how a libnfc or
                   PC/SC reader reaches ISO 15693 tags: transparent (FF C2, lock included), storage
                   (FF B0/FF D6 only, no lock) or no (PN53x front ends)

        Examples:
          provision readers
          provision readers --json

        Exit codes: 0 ok, 64 usage.

        \(ReaderFactory.specHelp)
        """

    /// `--json`: print the stable document instead of the table.
    var json = false

    /// The stable `--json` document.
    private struct Document: Codable {
        var version = JSONDocument.version
        var readers: [ReaderListing]
    }

    static func parse(_ arguments: [String]) throws(CLIError) -> ReadersCommand {
        let args = try Arguments(arguments, flags: ["json"], options: [])
        try args.requirePositionals(0...0, usage: "provision readers [--json]")
        return ReadersCommand(json: args.flag("json"))
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let output = context.output
        let readers = await ReaderFactory.listReaders()
        if json {
            try output.document(Document(readers: readers))
            return .success
        }
        let width = (readers.map(\.spec.count).max() ?? 10) + 2
        for reader in readers {
            let mark = reader.available ? "" : "unavailable: "
            output.line(
                reader.backend.padding(toLength: 6, withPad: " ", startingAt: 0)
                    + reader.spec.padding(toLength: width, withPad: " ", startingAt: 0) + mark + reader.note)
        }
        output.line("")
        output.line("Simulator options (sim:CHIP?option=value&…): see 'provision readers --help'.")
        return .success
    }
}
