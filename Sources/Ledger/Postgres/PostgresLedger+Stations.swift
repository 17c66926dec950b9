import Foundation
import Support

/// A station's lease row as the server holds it, for `provision status`.
public struct StationLeaseInfo: Sendable, Hashable, Codable {
    /// The station's name.
    public var name: String
    /// The process that holds (or last held) it.
    public var instance: String
    /// When that process took the lease, and its last heartbeat.
    public var startedAt: Date, heartbeatAt: Date
    /// Whether the lease is still running (by the server's clock).
    public var live: Bool
    /// When the lease runs out, or ran out (by the server's clock).
    public var expiresAt: Date
}

/// Station leases (schema version 2): one live process per station name, kept by a heartbeat, so a second
/// process with the same `--station` is refused and a frozen one stops (docs/stations.md). A lease is a row,
/// not a session advisory lock, so it works behind connection poolers.
extension PostgresLedger {
    /// Takes the lease of `station` for `seconds` as `instance` (`INSERT … ON CONFLICT DO UPDATE … WHERE` the old
    /// lease ran out, or is this instance's own: a try again after an answer lost with the connection).
    ///
    /// - Returns: the lease, valid from before the call was sent.
    /// - Throws: `.stationTaken` naming the live process's last heartbeat.
    public func acquireLease(
        station: String, seconds: Double, instance: String = PostgresLedger.instanceID()
    ) async throws(LedgerError) -> StationLease {
        let sent = ContinuousClock.now
        let taken = try await leaseCall("provision_take_lease", station, instance, seconds)
        guard taken else {
            let holder = try await stationLeases().first { $0.name == station }
            let seen = holder.map { " (instance \($0.instance), last heartbeat \(LedgerFormat.time($0.heartbeatAt)))" }
            throw LedgerError(
                .stationTaken,
                "station \(station) is running elsewhere\(seen ?? ""): give this process another --station name, "
                    + "or wait for that lease to run out (\(Int(seconds)) s after its last heartbeat)")
        }
        return StationLease(station: station, instance: instance, duration: .seconds(seconds), acquiredAt: sent)
    }

    /// Renews `lease` (the heartbeat); a lease that ran out on the server is lost for good.
    ///
    /// - Returns: whether it was renewed; when not, `lease` is marked lost.
    @discardableResult
    public func renewLease(_ lease: StationLease) async throws(LedgerError) -> Bool {
        let sent = ContinuousClock.now
        let renewed = try await leaseCall(
            "provision_renew_lease", lease.station, lease.instance, lease.duration.seconds)
        guard renewed else {
            lease.lose("its lease ran out before this heartbeat (the process was frozen or cut off)")
            return false
        }
        lease.renewed(sentAt: sent)
        return true
    }

    /// Ends `lease` now, so the station's name is free at once.
    public func releaseLease(_ lease: StationLease) async throws(LedgerError) {
        lease.lose("the station stopped")
        _ = try await leaseCall("provision_end_lease", lease.station, lease.instance, nil)
    }

    /// Calls one of the lease functions (`PostgresStationFunctions`), which check the login may act as `station`.
    ///
    /// - Returns: the function's answer (`true` when it took or renewed the lease).
    private func leaseCall(
        _ function: String, _ station: String, _ instance: String, _ seconds: Double?
    ) async throws(LedgerError) -> Bool {
        let values: [SQLiteValue] = [.text(station), .text(instance)] + (seconds.map { [.real($0)] } ?? [])
        let sql = "SELECT \(function)(" + values.map { _ in "?" }.joined(separator: ", ") + ")::text"
        return try await perform { () throws(LedgerError) -> Bool in
            try connection.queryFirst(sql, values) { $0.optionalText(0) } == "true"
        }
    }

    /// Every station that ever took a lease on this ledger.
    public func stationLeases() async throws(LedgerError) -> [StationLeaseInfo] {
        try await perform { () throws(LedgerError) -> [StationLeaseInfo] in
            try connection.query(
                """
                SELECT name, instance,
                       to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS started_at,
                       to_char(heartbeat_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS heartbeat_at,
                       CASE WHEN lease_expires >= now() THEN 1 ELSE 0 END AS live,
                       to_char(lease_expires AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS lease_expires
                FROM stations ORDER BY name
                """
            ) { row throws(LedgerError) in
                StationLeaseInfo(
                    name: row.text("name"), instance: row.text("instance"),
                    startedAt: try LedgerFormat.date(row.text("started_at")),
                    heartbeatAt: try LedgerFormat.date(row.text("heartbeat_at")), live: row.int("live") == 1,
                    expiresAt: try LedgerFormat.date(row.text("lease_expires")))
            }
        }
    }

    /// Holds the job's registration lock (a session advisory lock) until `unlockRegistration`, so stations
    /// that start together register the job and add its rows once: the others wait, then find them.
    public func lockRegistration(job: String) async throws(LedgerError) {
        try await perform { () throws(LedgerError) in
            _ = try connection.query("SELECT pg_advisory_lock(hashtext('provision register ' || ?1))", [.text(job)]) {
                _ in 0
            }
        }
    }

    /// Releases the job's registration lock.
    public func unlockRegistration(job: String) async throws(LedgerError) {
        try await perform { () throws(LedgerError) in
            _ = try connection.query("SELECT pg_advisory_unlock(hashtext('provision register ' || ?1))", [.text(job)]) {
                _ in 0
            }
        }
    }

    /// A process's instance id: host, process id and a random part.
    public static func instanceID() -> String {
        let host = ProcessInfo.processInfo.hostName
        return "\(host):\(getpid()):\(UInt32.random(in: 0...UInt32.max))"
    }
}
