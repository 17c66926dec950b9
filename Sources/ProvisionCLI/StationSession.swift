import Foundation
import Ledger
import Support

/// A station's presence on a ledger server while `run` works: its lease, taken at start (a second live
/// process with the same name is refused), renewed by a heartbeat, and given back at the end
/// (docs/stations.md, "Stations").
final class StationSession: Sendable {
    /// The lease the workers check before every claim and first write.
    let lease: StationLease
    private let ledger: PostgresLedger
    private let heartbeat: Task<Void, Never>
    /// How giving the lease back rides out a dropped connection.
    private let outage: OutageRetry

    /// How long a lease holds unless renewed (`--lease`).
    static let defaultLeaseSeconds = 15.0

    /// Takes the lease of `station` on its own connection to `conninfo` and starts its heartbeat (every
    /// fifth of the lease, so four heartbeats can be lost before the lease runs out). A dropped connection
    /// while taking it pauses and tries again (`outage`), as the same process, so a lease taken by a try whose
    /// answer was lost is this station's own. A server refusing the connection (restarting) is ridden out too,
    /// `probe` (the run's first connection) telling when it is back.
    ///
    /// - Throws: `CLIError` 69 when the station is live elsewhere or the server cannot be reached.
    static func start(
        conninfo: PostgresConnInfo, station: String, leaseSeconds: Double, notes: TextSink, outage: OutageRetry,
        probe: any LedgerStore
    ) async throws(CLIError) -> StationSession {
        let ledger = try await outage.connect(conninfo, station: station, probe: probe)
        let instance = PostgresLedger.instanceID()
        let lease = try await outage.runForCommand("start-up", on: ledger) {
            try await ledger.acquireLease(station: station, seconds: leaseSeconds, instance: instance)
        }
        return StationSession(ledger: ledger, lease: lease, notes: notes, outage: outage)
    }

    private init(ledger: PostgresLedger, lease: StationLease, notes: TextSink, outage: OutageRetry) {
        self.ledger = ledger
        self.lease = lease
        self.outage = outage
        let interval = Duration.milliseconds(max(Int(lease.duration.seconds * 200), 100))
        heartbeat = Task { [ledger, lease] in
            var failing = false
            while !Task.isCancelled, lease.isValid {
                try? await Task.sleep(for: interval)
                do {
                    guard try await ledger.renewLease(lease) else {
                        notes.line("error: station \(lease.station): its lease ran out; stopping without writing")
                        return
                    }
                    if failing { notes.line("note: station \(lease.station): the ledger server answers again") }
                    failing = false
                } catch {
                    // A dropped connection is tried again at the next beat (the workers pause meanwhile).
                    if (error as? LedgerError)?.code == .disconnected { try? await ledger.reconnect() }
                    if !failing {
                        let reason = (error as? LedgerError)?.message ?? "\(error)"
                        notes.line(
                            "warning: station \(lease.station): heartbeat failed (\(reason)); the line stops "
                                + "writing if the server stays away for the lease (\(Int(lease.duration.seconds)) s)")
                    }
                    failing = true
                }
            }
        }
    }

    /// Stops the heartbeat and frees the station's name at once (after a dropped connection, once the server
    /// answers again; if it stays away, the lease runs out by itself).
    func end() async {
        heartbeat.cancel()
        _ = await heartbeat.value
        _ = try? await outage.run("end of run", on: ledger) { try await ledger.releaseLease(lease) }
    }
}
