import Ledger

/// Holds a tag's first changing step until the row's claim is durable (`Ledger.syncInBackground()`), so
/// the claim's sync runs under identify and detection instead of before them, and no write ever reaches
/// a tag whose claim a power loss could undo; on a line of stations it also holds the write when the station's
/// lease ran out. The pipeline awaits it between its reader calls.
public final class WriteGate: Sendable {
    let ticket: DurabilityTicket
    /// The station's lease on a line of stations: a station frozen past it writes nothing.
    let lease: StationLease?

    /// A gate that opens when `ticket` finishes (and while `lease`, if any, is valid).
    public init(_ ticket: DurabilityTicket, lease: StationLease? = nil) {
        self.ticket = ticket
        self.lease = lease
    }

    /// Whether the claim is durable already and the lease valid: nothing to wait for.
    public var isOpen: Bool { ticket.isDurable && (lease?.isValid ?? true) }

    /// Waits until the claim is durable, then checks the lease.
    ///
    /// - Throws: the sync's `LedgerError`, or `.leaseLost`: nothing may be written.
    func open() async throws(LedgerError) {
        try await ticket.wait()
        try lease?.check()
    }
}
