/// Process exit statuses, following BSD sysexits(3); decided in exactly one place (`ProvisionCLI.run`).
public enum ExitCode: Int32, Sendable, Hashable {
    /// Everything asked for was done.
    case success = 0
    /// The command ran, but some work failed (rows failed, audit findings).
    case failure = 1
    /// EX_USAGE: bad command line.
    case usage = 64
    /// EX_DATAERR: bad input data (manifest, template, CSV, hex, JSON).
    case dataError = 65
    /// EX_NOINPUT: an input file does not exist or cannot be read.
    case noInput = 66
    /// EX_UNAVAILABLE: a reader, service or device is not available.
    case unavailable = 69
    /// EX_SOFTWARE: an internal error.
    case software = 70
    /// EX_CANTCREAT: an output file cannot be created.
    case cannotCreate = 73
    /// EX_IOERR: an I/O error while reading or writing.
    case ioError = 74
    /// EX_TEMPFAIL: try again later (a locked ledger, a busy device).
    case temporaryFailure = 75
    /// EX_NOPERM: insufficient permission (e.g. a key file readable by others).
    case noPermission = 77
    /// Interrupted by SIGINT (128 + 2).
    case interrupted = 130
}

/// An error the CLI reports as one `error:` line and turns into an exit code.
public struct CLIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The exit status this error produces.
    public var exitCode: ExitCode
    /// The one-line message (without the `error: ` prefix).
    public var message: String

    /// Creates an error with an explicit exit code.
    public init(_ exitCode: ExitCode, _ message: String) {
        self.exitCode = exitCode
        self.message = message
    }

    /// A command-line usage error (exit 64).
    public static func usage(_ message: String) -> CLIError { CLIError(.usage, message) }
    /// A data error (exit 65).
    public static func data(_ message: String) -> CLIError { CLIError(.dataError, message) }

    public var description: String { message }
}
