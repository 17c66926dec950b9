/// One `provision` subcommand: parse → validate → run, with help text and no process-global state.
public protocol Command: Sendable {
    /// The verb typed on the command line (`ndef`, `run`).
    static var name: String { get }
    /// One line for the command list in `provision --help`.
    static var summary: String { get }
    /// The full `--help` text, with usage and examples.
    static var help: String { get }

    /// Runs the command with the arguments after the verb.
    ///
    /// - Returns: the exit code for work that ran (success, some failures).
    /// - Throws: `CLIError` for usage, data and environment errors.
    static func run(_ arguments: [String], context: CommandContext) async throws -> ExitCode
}
