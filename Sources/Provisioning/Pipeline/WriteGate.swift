import Ledger

/// Holds a tag's first changing step until the row's claim is durable (`Ledger.syncInBackground()`), so
/// the claim's sync runs under identify and detection instead of before them, and no write ever reaches
/// a tag whose claim a power loss could undo. The pipeline awaits it between its reader calls.
public final class WriteGate: Sendable {
    let ticket: DurabilityTicket

    /// A gate that opens when `ticket` finishes.
    public init(_ ticket: DurabilityTicket) {
        self.ticket = ticket
    }

    /// Whether the claim is durable already: nothing to wait for.
    public var isOpen: Bool { ticket.isDurable }

    /// Waits until the claim is durable.
    ///
    /// - Throws: the sync's `LedgerError`: nothing may be written.
    func open() async throws(LedgerError) {
        try await ticket.wait()
    }
}
