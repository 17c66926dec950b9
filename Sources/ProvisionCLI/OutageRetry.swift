import Foundation
import Ledger
import Support

/// `run`'s ledger calls outside the line workers — registering the job, taking and giving back the station's
/// lease, the end-of-run report — ride out a server outage with the workers' policy (`LedgerOutage`): the same
/// `attention:` alerts, at most the station's lease long, given up at Ctrl-C (docs/stations.md, "Failures").
struct OutageRetry: Sendable {
    /// How long the pauses of one step may last in all: the lease, as for the workers.
    let limit: Duration
    /// The operator's stop request: a Ctrl-C during an outage gives up at once.
    let stop: StopRequest
    /// Where the alerts go.
    let display: ProgressDisplay

    /// Runs `step` on `ledger`; a dropped connection pauses it, reconnects and runs it again. `step` must be
    /// safe to repeat after an answer that was lost (idempotent, or one transaction); `phase` names it in the
    /// alerts (`start-up`, `end of run`).
    ///
    /// - Throws: the error that lost the connection when the server stays away for `limit` or the operator stops;
    ///   any other error of `step` at once.
    func run<T>(_ phase: String, on ledger: any LedgerStore, _ step: () async throws -> T) async throws -> T {
        try await LedgerOutage().retrying(
            limit: limit, stop: stop,
            reconnect: { () async throws(LedgerError) in try await ledger.reconnect() },
            notify: { notice in
                switch notice {
                case .lost(let detail):
                    display.alert("ledger connection lost (\(detail)); \(phase) paused, reconnecting")
                case .back(let after):
                    display.alert("ledger back after \(String(format: "%.1f", after.seconds)) s; \(phase) carries on")
                }
            }, step)
    }

    /// `run`, failing as the command does: a ledger error worded as every command words it
    /// (`JobContext.cliError`), anything else through the error table.
    func runForCommand<T>(_ phase: String, on ledger: any LedgerStore, _ step: () async throws -> T)
        async throws(CLIError) -> T
    {
        do {
            return try await run(phase, on: ledger, step)
        } catch {
            throw Self.cliError(error)
        }
    }

    /// A step's failure as the command's error.
    static func cliError(_ error: any Error) -> CLIError {
        if let error = error as? LedgerError { return JobContext.cliError(error) }
        return ErrorTable.cliError(error)
    }

    /// Opens one more connection to a ledger server this run has reached already (the station's lease, a second
    /// reader's): a refused connection is taken for an outage (a server restarting) and ridden out as a dropped
    /// one, `probe` (a connection of this run) telling when the server answers again.
    ///
    /// - Throws: `CLIError` 69 when the server stays away for `limit` or the operator stops.
    func connect(_ conninfo: PostgresConnInfo, station: String, probe: any LedgerStore) async throws(CLIError)
        -> PostgresLedger
    {
        do {
            return try await run("start-up", on: probe) {
                do {
                    return try await PostgresLedger.open(conninfo: conninfo.text, station: station)
                } catch let error as LedgerError where error.code == .cannotOpen {
                    throw LedgerError(.disconnected, error.message)
                }
            }
        } catch let error as LedgerError where error.code == .disconnected {
            throw ErrorTable.cliError(error, message: "ledger server: \(error.message)")
        } catch {
            throw Self.cliError(error)
        }
    }
}
