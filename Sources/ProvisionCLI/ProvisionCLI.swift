import Foundation
import Support

/// The `provision` command library: the executable is a thin entry point over `ProvisionCLI.run`.
public enum ProvisionCLI {
    /// The version printed by `provision --version`: stamped by `make deb` from `git describe` (VersionReport).
    public static var version: String { VersionReport.buildVersion }

    /// Top-level help.
    static var help: String {
        var text = ChipLists.wrapped(
            "provision — program NFC tags in bulk: all four NFC Forum tag types in use (iOS Core NFC's four), "
                + ChipLists.named + ", and any tag of each type.")
        text += """


            Usage: provision <command> [options]
                   provision <command> --help
                   provision --version [--json]

            Commands:

            """
        let width = (CommandRegistry.all.map { $0.name.count }.max() ?? 8) + 2
        for command in CommandRegistry.all {
            text += "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += """

            Exit codes: 0 ok, 1 some work failed, 64 usage, 65 data error, 66 missing input,
            69 unavailable, 73 cannot create output, 74 I/O error, 75 device busy (a reader in use by
            another process), 77 key file permissions (readable by group or others), 130 interrupted.

            """
        return text
    }

    /// Runs one command line (without the program name) and returns the process exit status.
    ///
    /// This is the only place that turns errors into exit codes and `error:` lines.
    public static func run(_ arguments: [String], context: CommandContext) async -> Int32 {
        guard let verb = arguments.first else {
            context.err.write(help)
            return ExitCode.usage.rawValue
        }
        switch verb {
        case "help" where arguments.count > 1 && ["--man", "--completion"].contains(arguments[1]):
            return manual(Array(arguments.dropFirst()), context: context)
        case "--help", "-h", "help":
            if arguments.count > 1, verb == "help", let command = CommandRegistry.command(named: arguments[1]) {
                context.out.write(command.help)
            } else {
                context.out.write(help)
            }
            return ExitCode.success.rawValue
        case "--version", "-V":
            let report = VersionReport.current()
            guard asksForJSON(arguments) else {
                context.out.write(report.text)
                return ExitCode.success.rawValue
            }
            let output = Output(format: .json, out: context.out, err: context.err)
            do {
                try output.document(report)
                return ExitCode.success.rawValue
            } catch {
                output.fail(error)
                return error.exitCode.rawValue
            }
        default:
            break
        }
        guard let command = CommandRegistry.command(named: verb) else {
            context.err.line("error: unknown command '\(verb)'; see 'provision --help'")
            return ExitCode.usage.rawValue
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            context.out.write(command.help)
            return ExitCode.success.rawValue
        }
        // The format is known before parsing, so a usage error under --json is an error document too.
        var context = context
        context.output = Output(format: asksForJSON(rest) ? .json : .text, out: context.out, err: context.err)
        do {
            let parsed = try command.parse(rest)
            context.output = Output(format: parsed.json ? .json : .text, out: context.out, err: context.err)
            guard command.stopsBetweenTags else { return try await parsed.run(context: context).rawValue }
            let interrupts = Interrupts()
            if context.handlesSignals { interrupts.install(stop: context.stop) }
            defer { interrupts.uninstall() }
            let status = try await parsed.run(context: context)
            // The tag in progress finished; a requested stop ends the command with 130 whatever it did.
            return context.stop.isRequested ? ExitCode.interrupted.rawValue : status.rawValue
        } catch {
            let failure = ErrorTable.cliError(error)
            context.output.fail(failure)
            return failure.exitCode.rawValue
        }
    }

    /// The hidden `help --man [COMMAND]` and `help --completion bash` (used by `make deb`): a man page or the
    /// bash completion, rendered from the help texts and the registry.
    static func manual(_ arguments: [String], context: CommandContext) -> Int32 {
        switch (arguments.first, arguments.count) {
        case ("--man", 1):
            context.out.write(ManPage.main(version: version))
        case ("--man", 2):
            guard let command = CommandRegistry.command(named: arguments[1]) else {
                context.err.line("error: unknown command '\(arguments[1])'; see 'provision --help'")
                return ExitCode.usage.rawValue
            }
            context.out.write(ManPage.page(for: command, version: version))
        case ("--completion", 2) where arguments[1] == "bash":
            context.out.write(BashCompletion.script())
        default:
            context.err.line("error: usage: provision help --man [COMMAND] | provision help --completion bash")
            return ExitCode.usage.rawValue
        }
        return ExitCode.success.rawValue
    }

    /// Whether `--json` appears among the options (before a `--` that ends them).
    static func asksForJSON(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--json")
    }
}
