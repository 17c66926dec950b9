import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import ReaderLibNFC
import ReaderPCSC

/// The one table from error kinds to exit codes and error-document classes (docs/style.md §3.4).
///
/// `ProvisionCLI.run` and every place that turns a module's error into a `CLIError` ask this table for
/// the exit code, so a kind of error exits the same way from every command. The first matching rule
/// wins; an error no rule matches is an internal error (70). `ErrorTableTests` walks every rule.
enum ErrorTable {
    /// One row: the errors it covers, their exit code, and the `class` an error document names.
    struct Rule: Sendable {
        /// The error kind in words (`LedgerError.busy`), for the test and docs/json.md.
        var kind: String
        /// The `class` of the error document (`ledgerBusy`).
        var errorClass: String
        /// The exit status.
        var exit: ExitCode
        /// Whether an error is of this kind.
        var matches: @Sendable (any Error) -> Bool
        /// An error of this kind, for the test that walks the table.
        var sample: @Sendable () -> any Error
    }

    /// Every rule, most specific first.
    static let rules: [Rule] =
        ExitCode.allCases.filter { $0 != .success }.map(cliRule) + [
            Rule(
                kind: "CancellationError", errorClass: "interrupted", exit: .interrupted,
                matches: { $0 is CancellationError }, sample: { CancellationError() }),
            key(.permissions, "keyPermissions", .noPermission, .file(URL(fileURLWithPath: "/etc/passwd"))),
            key(.missing, "keyMissing", .noInput, .environment("K")),
            key(.unreadable, "keyUnreadable", .noInput, .file(URL(fileURLWithPath: "/dev/null"))),
            key(.malformed, "keyMalformed", .dataError, .environment("K"), value: "zz"),
            key(.tooShort, "keyTooShort", .dataError, .environment("K"), value: "hex:0011"),
            key(.usage, "keyUsage", .usage, .token("pkcs11:token=t?pin-value=1234")),
            tokenKey(.unsafe, "keyUnsafe", .dataError),
            key(.tokenUnavailable, "tokenUnavailable", .unavailable, .token("pkcs11:token=t?module-path=/absent.so")),
            tokenKey(.tokenFailure, "tokenFailure", .software),
            ledger(.cannotOpen, "ledgerCannotOpen", .cannotCreate),
            ledger(.readOnly, "ledgerReadOnly", .cannotCreate),
            ledger(.roleRequired, "ledgerRoleRequired", .noPermission),
            ledger(.schemaTooOld, "ledgerSchemaTooOld", .cannotCreate),
            ledger(.schemaTooNew, "ledgerSchemaTooNew", .cannotCreate),
            ledger(.busy, "ledgerBusy", .unavailable),
            ledger(.stationTaken, "ledgerStationTaken", .unavailable),
            ledger(.leaseLost, "ledgerLeaseLost", .temporaryFailure),
            ledger(.disconnected, "ledgerDisconnected", .unavailable),
            ledger(.manifestMismatch, "ledgerManifestMismatch", .dataError),
            ledger(.unknownJob, "ledgerUnknownJob", .dataError),
            ledger(.unknownRow, "ledgerUnknownRow", .dataError),
            ledger(.invalidState, "ledgerInvalidState", .dataError),
            Rule(
                kind: "LedgerError (any other code)", errorClass: "ledger", exit: .ioError,
                matches: { $0 is LedgerError }, sample: { LedgerError(.sqlite, "disk I/O error") }),
            Rule(
                kind: "JobInputError.fileMissing", errorClass: "fileMissing", exit: .noInput,
                matches: { ($0 as? JobInputError)?.code == .fileMissing },
                sample: { JobInputError(.fileMissing, file: "job.json", "no such file") }),
            Rule(
                kind: "JobInputError (manifest, template, records)", errorClass: "jobInput", exit: .dataError,
                matches: { $0 is JobInputError },
                sample: { JobInputError(.manifestInvalid, file: "job.json", "job: missing") }),
            Rule(
                kind: "RecordJSONError", errorClass: "recordJSON", exit: .dataError,
                matches: { $0 is RecordJSONError },
                sample: { RecordJSONError(path: "records[0].uri", reason: "missing") }),
            Rule(
                kind: "NDEFError", errorClass: "ndef", exit: .dataError,
                matches: { $0 is NDEFError }, sample: { NDEFError(.emptyBuffer, at: 0, "no bytes") }),
            Rule(
                kind: "NDEFTLVError", errorClass: "ndefTLV", exit: .dataError,
                matches: { $0 is NDEFTLVError }, sample: { NDEFTLVError(.noNDEF, at: 0, "no NDEF TLV") }),
            Rule(
                kind: "ReaderSpecError", errorClass: "readerSpec", exit: .usage,
                matches: { $0 is ReaderSpecError }, sample: { ReaderSpecError(spec: "sim:x", reason: "unknown chip") }),
            Rule(
                kind: "LibNFCError.badSpec", errorClass: "readerSpec", exit: .usage,
                matches: { ($0 as? LibNFCError)?.code == .badSpec },
                sample: { LibNFCError(.badSpec, "bad connstring") }),
            Rule(
                kind: "LibNFCError.deviceBusy", errorClass: "readerBusy", exit: .temporaryFailure,
                matches: { ($0 as? LibNFCError)?.code == .deviceBusy },
                sample: { LibNFCError(.deviceBusy, "in use") }),
            Rule(
                kind: "LibNFCError (any other code)", errorClass: "readerUnavailable", exit: .unavailable,
                matches: { $0 is LibNFCError }, sample: { LibNFCError(.noDevice, "no device") }),
            Rule(
                kind: "PCSCError.badSpec", errorClass: "readerSpec", exit: .usage,
                matches: { ($0 as? PCSCError)?.code == .badSpec }, sample: { PCSCError(.badSpec, "bad name") }),
            Rule(
                kind: "PCSCError (any other code)", errorClass: "readerUnavailable", exit: .unavailable,
                matches: { $0 is PCSCError }, sample: { PCSCError(.noService, "pcscd not running") }),
            reader(.cannotOpen, "readerUnavailable", .unavailable),
            reader(.stopped, "readerUnavailable", .unavailable),
            reader(.exhausted, "unavailable", .unavailable),
            reader(.idle, "unavailable", .unavailable),
            reader(.releaseFailed, "ioError", .ioError),
            Rule(
                kind: "LedgerServerUnreachable", errorClass: "ledgerUnreachable", exit: .unavailable,
                matches: { $0 is LedgerServerUnreachable }, sample: { LedgerServerUnreachable("connection refused") }),
            // A tag's transport failure inside the work (the tag left the field): a failed tag, not a lost reader.
            Rule(
                kind: "TransportError", errorClass: "transport", exit: .failure,
                matches: { $0 is TransportError }, sample: { TransportError.tagLost }),
            Rule(
                kind: "TagError", errorClass: "tag", exit: .failure,
                matches: { $0 is TagError }, sample: { TagError(.readOnly, "locked") }),
            Rule(
                kind: "CycleFailure", errorClass: "tag", exit: .failure,
                matches: { $0 is CycleFailure }, sample: { CycleFailure(.capacity, phase: .write, "too large") }),
        ]

    /// The rule for a `CLIError` that already carries `code`.
    private static func cliRule(_ code: ExitCode) -> Rule {
        Rule(
            kind: "CLIError(.\(code))", errorClass: code.className, exit: code,
            matches: { ($0 as? CLIError)?.exitCode == code }, sample: { CLIError(code, "sample") })
    }

    /// A key rule; its sample is what `KeyLoader` throws for `source` (world-readable /etc/passwd,
    /// /dev/null, an unset or malformed variable `K`), since only `KeyLoader` makes a `KeyError`.
    private static func key(
        _ reason: KeyError.Reason, _ errorClass: String, _ exit: ExitCode, _ source: KeySource, value: String? = nil
    ) -> Rule {
        Rule(
            kind: "KeyError.\(reason.rawValue)", errorClass: errorClass, exit: exit,
            matches: { ($0 as? KeyError)?.reason == reason },
            sample: {
                do {
                    _ = try KeyLoader.load(id: "k", from: source, environment: value.map { ["K": $0] } ?? [:])
                    return CLIError(.software, "the sample key loaded")
                } catch {
                    return error
                }
            })
    }

    /// A token key rule whose error needs a token to happen (a master that can leave it, a module's failure): its
    /// sample is the `KeyError` `TokenKeyLoader` throws then.
    private static func tokenKey(_ reason: KeyError.Reason, _ errorClass: String, _ exit: ExitCode) -> Rule {
        Rule(
            kind: "KeyError.\(reason.rawValue)", errorClass: errorClass, exit: exit,
            matches: { ($0 as? KeyError)?.reason == reason },
            sample: { KeyError(id: "k", reason: reason, message: "token key \"k\": sample") })
    }

    private static func reader(_ reason: ReaderFailure.Reason, _ errorClass: String, _ exit: ExitCode) -> Rule {
        Rule(
            kind: "ReaderFailure.\(reason.rawValue)", errorClass: errorClass, exit: exit,
            matches: { ($0 as? ReaderFailure)?.reason == reason }, sample: { ReaderFailure(reason, "reader r: sample") }
        )
    }

    private static func ledger(_ code: LedgerError.Code, _ errorClass: String, _ exit: ExitCode) -> Rule {
        Rule(
            kind: "LedgerError.\(code)", errorClass: errorClass, exit: exit,
            matches: { ($0 as? LedgerError)?.code == code }, sample: { LedgerError(code, "sample") })
    }

    /// The first rule matching `error`, `nil` for an error no rule knows (an internal error).
    static func rule(for error: any Error) -> Rule? {
        rules.first { $0.matches(error) }
    }

    /// The exit code for `error`: its rule's, else 70 (internal error).
    static func exitCode(for error: any Error) -> ExitCode {
        rule(for: error)?.exit ?? .software
    }

    /// `error` as the CLI reports it, with the table's exit code and class (a `CLIError` keeps its own).
    ///
    /// `message` replaces the error's own words when given; file, line and field come from the error
    /// where it knows them (a manifest problem's file and line, a record JSON path).
    static func cliError(_ error: any Error, message: String? = nil) -> CLIError {
        if let error = error as? CLIError { return error }
        let rule = rule(for: error)
        var failure = CLIError(
            rule?.exit ?? .software, message ?? (error is CancellationError ? "interrupted" : "\(error)"),
            errorClass: rule?.errorClass ?? "software")
        if let input = error as? JobInputError {
            failure.file = input.file
            failure.line = input.position?.line
        }
        if let json = error as? RecordJSONError, !json.path.isEmpty { failure.field = json.path }
        return failure
    }
}
