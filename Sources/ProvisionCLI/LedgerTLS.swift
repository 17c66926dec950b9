import Foundation
import Ledger

/// The rule for a ledger server off this machine: a TCP connection must verify the server's certificate
/// (`sslmode=verify-full`, or `verify-ca` with a pinned CA), unless `--insecure-ledger` lifts it; a Unix socket
/// is exempt. A lifted rule is warned about and recorded as an event on the job (docs/stations.md, "TLS").
struct LedgerTLS: Sendable {
    /// The flag every command that opens a ledger takes.
    static let flag = "insecure-ledger"

    /// The usage lines the commands' help shares.
    static let help = """
          --insecure-ledger  allow a ledger server over TCP without sslmode=verify-full (or verify-ca with
                           sslrootcert): warned about, and recorded as an event on the job
        """

    /// `--insecure-ledger` was given.
    var allowInsecure = false
    /// The job the event is recorded on; `nil` (migrate, copy): warned about only.
    var job: String?
    /// Whether opening the ledger records the event; `run` records it itself once the job is registered.
    var recordsOnOpen = true

    /// Checks how `conninfo` travels, as libpq will read it (with this process's `PG…` environment); an allowed
    /// insecure connection is warned about on `warnings` (the command's stderr).
    ///
    /// - Throws: `CLIError` 64 saying what to add to the connection string, or the flag.
    func check(
        _ conninfo: PostgresConnInfo, warnings: TextSink?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CLIError) {
        guard let how = Self.insecurity(of: conninfo, environment: environment) else { return }
        guard allowInsecure else {
            let add =
                PostgresConnInfo.isURI(conninfo.text)
                ? "sslmode=verify-full&sslrootcert=/path/to/ca.crt to the URI's query"
                : "sslmode=verify-full sslrootcert=/path/to/ca.crt to the connection string"
            throw .usage(
                "ledger server \(conninfo.redacted) is reached \(how): add \(add) (verify-ca also needs "
                    + "sslrootcert), or give --\(Self.flag) to connect anyway (docs/stations.md, \"TLS\")",
                option: "ledger")
        }
        let recorded = job.map { "; recorded on job '\($0)'" } ?? ""
        warnings?.line("warning: ledger server \(conninfo.redacted) is reached \(how) (--\(Self.flag))\(recorded)")
    }

    /// Records on the job (if it is in the ledger) that `ledger`, opened at `location`, is reached insecurely:
    /// an event `insecure-connection` whose actor is the station. Nothing for a socket or verified TLS.
    ///
    /// - Throws: `CLIError` as any ledger write fails: an insecure connection that cannot be recorded is not used.
    func record(
        on location: LedgerLocation, in ledger: any LedgerStore,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws(CLIError) {
        guard let job, case .server(let conninfo) = location, let server = ledger as? PostgresLedger,
            let how = Self.insecurity(of: conninfo, environment: environment)
        else { return }
        do {
            guard try await server.job(named: job) != nil else { return }
            try await server.recordInsecureConnection(job: job, detail: "--\(Self.flag): \(how)")
        } catch {
            throw JobContext.cliError(error)
        }
    }

    /// How an unverified connection travels (`over TCP with sslmode=prefer, …`); `nil` when it is verified.
    private static func insecurity(of conninfo: PostgresConnInfo, environment: [String: String]) -> String? {
        guard case .unverifiedTCP(let mode) = conninfo.transport(environment: environment) else { return nil }
        return "over TCP with sslmode=\(mode), which does not verify the server"
    }
}
