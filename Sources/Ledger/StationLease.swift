import Foundation
import Support
import Synchronization

/// A station's lease as this process last renewed it: the line checks it before every claim and before the
/// first write to a tag, so a station frozen past its lease stops without writing (docs/stations.md).
///
/// The heartbeat renews it on the server (`PostgresLedger.renewLease`); the check itself is a clock read.
public final class StationLease: Sendable {
    /// The station's name.
    public let station: String
    /// This process's instance id in the lease row.
    public let instance: String
    /// How long one renewal holds.
    public let duration: Duration

    private struct State {
        var validUntil: ContinuousClock.Instant
        var lost: String?
    }

    private let state: Mutex<State>

    /// A lease just acquired at `acquiredAt` (before the acquiring call was sent, so the local view expires
    /// no later than the server's).
    public init(station: String, instance: String, duration: Duration, acquiredAt: ContinuousClock.Instant) {
        self.station = station
        self.instance = instance
        self.duration = duration
        self.state = Mutex(State(validUntil: acquiredAt + duration))
    }

    /// Records a renewal sent at `sentAt`.
    public func renewed(sentAt: ContinuousClock.Instant) {
        state.withLock { state in
            if state.lost == nil { state.validUntil = max(state.validUntil, sentAt + duration) }
        }
    }

    /// Marks the lease lost for good (the server refused a renewal): `reason` says why.
    public func lose(_ reason: String) {
        state.withLock { state in
            if state.lost == nil { state.lost = reason }
        }
    }

    /// Whether the station may still claim and write.
    public var isValid: Bool {
        state.withLock { $0.lost == nil && ContinuousClock.now < $0.validUntil }
    }

    /// Throws `.leaseLost` unless the lease is valid.
    public func check() throws(LedgerError) {
        let (lost, validUntil) = state.withLock { ($0.lost, $0.validUntil) }
        if let lost { throw LedgerError(.leaseLost, "station \(station): \(lost); stopped without writing") }
        let now = ContinuousClock.now
        guard now < validUntil else {
            let late = String(format: "%.1f s", (now - validUntil).seconds)
            throw LedgerError(
                .leaseLost,
                "station \(station): its lease ran out \(late) ago (the process was frozen or could not reach "
                    + "the ledger); stopped without writing: a claimed tag stays with its UID for any station")
        }
    }
}
