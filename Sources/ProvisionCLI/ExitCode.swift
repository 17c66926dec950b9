/// Process exit statuses, following BSD sysexits(3); decided in exactly one place (`ProvisionCLI.run`).
public enum ExitCode: Int32, Sendable, Hashable, CaseIterable {
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

/// An error the CLI reports as one `error:` line (and, under `--json`, one error document) and an exit code.
public struct CLIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The exit status this error produces.
    public var exitCode: ExitCode
    /// The one-line message (without the `error: ` prefix).
    public var message: String
    /// The error document's `class` when more precise than the exit code's (`ledgerBusy`, `keyMissing`).
    public var errorClass: String?
    /// The input file the error is about, when known.
    public var file: String?
    /// The line in `file`, when known.
    public var line: Int?
    /// The option (`--reader`) or JSON path (`records[0].uri`) the error is about, when known.
    public var field: String?

    /// Creates an error with an explicit exit code and, where known, its class, file, line and field.
    public init(
        _ exitCode: ExitCode, _ message: String, errorClass: String? = nil, file: String? = nil, line: Int? = nil,
        field: String? = nil
    ) {
        self.exitCode = exitCode
        self.message = message
        self.errorClass = errorClass
        self.file = file
        self.line = line
        self.field = field
    }

    /// A command-line usage error (exit 64), naming the option when there is one (`--timeout`).
    public static func usage(_ message: String, option: String? = nil) -> CLIError {
        CLIError(.usage, message, field: option.map { $0.hasPrefix("-") ? $0 : "--" + $0 })
    }
    /// A data error (exit 65).
    public static func data(_ message: String) -> CLIError { CLIError(.dataError, message) }

    /// The class an error document names: `errorClass`, else the exit code's name.
    public var className: String { errorClass ?? exitCode.className }

    public var description: String { message }
}

extension ExitCode {
    /// The stable name error documents give an exit code without a more precise class.
    public var className: String {
        switch self {
        case .success: "ok"
        case .failure: "failure"
        case .usage: "usage"
        case .dataError: "dataError"
        case .noInput: "noInput"
        case .unavailable: "unavailable"
        case .software: "software"
        case .cannotCreate: "cannotCreate"
        case .ioError: "ioError"
        case .temporaryFailure: "temporaryFailure"
        case .noPermission: "noPermission"
        case .interrupted: "interrupted"
        }
    }
}
