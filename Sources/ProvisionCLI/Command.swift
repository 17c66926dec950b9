/// One `provision` subcommand as a value: parsed from its arguments into typed fields, then run.
///
/// `parse` catches every usage error (exit 64, naming the option) before anything is touched; `run`
/// reads only the parsed fields and reports through `context.output` (text, or one `--json` document).
public protocol Command: Sendable {
    /// The verb typed on the command line (`ndef`, `run`).
    static var name: String { get }
    /// One line for the command list in `provision --help`.
    static var summary: String { get }
    /// The full `--help` text, with usage and examples.
    static var help: String { get }

    /// Parses the arguments after the verb into the command's typed fields.
    ///
    /// - Throws: `CLIError` 64 for any usage error, with a message naming the option.
    static func parse(_ arguments: [String]) throws(CLIError) -> Self

    /// Whether the command reports one JSON document (`--json`).
    var json: Bool { get }

    /// Whether the command works on tags and so stops between tags on the first Ctrl-C (exit 130).
    static var stopsBetweenTags: Bool { get }

    /// Runs the parsed command.
    ///
    /// - Returns: the exit code for work that ran (success, some failures).
    /// - Throws: `CLIError` for data and environment errors; other errors go through `ErrorTable`.
    func run(context: CommandContext) async throws -> ExitCode
}

extension Command {
    /// Commands without `--json` report text only.
    public var json: Bool { false }

    /// Commands that work on no tag keep the default SIGINT action (they end at once).
    public static var stopsBetweenTags: Bool { false }
}
