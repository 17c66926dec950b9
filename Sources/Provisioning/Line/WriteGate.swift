import Ledger
import NFCTags

/// Holds a tag's first page-changing command until the row's claim is durable (`Ledger.syncInBackground()`),
/// so the claim's sync runs under identify and detection instead of before them, and no WRITE ever
/// reaches a tag whose claim a power loss could undo.
public final class WriteGate: Sendable {
    let ticket: DurabilityTicket

    /// A gate that opens when `ticket` finishes.
    public init(_ ticket: DurabilityTicket) {
        self.ticket = ticket
    }

    /// Blocks until the claim is durable; returns how long it waited.
    ///
    /// - Throws: the sync's `LedgerError`: nothing may be written.
    func pass(clock: ContinuousClock) throws(LedgerError) -> Duration {
        guard !ticket.isComplete else {
            try ticket.wait()
            return .zero
        }
        let start = clock.now
        try ticket.wait()
        return clock.now - start
    }
}

/// A transceiver that sends its tag's page-changing commands only after the gate opens (once).
final class GatedTransceiver: Transceiver {
    private let inner: any Transceiver
    private let gate: WriteGate
    private let clock = ContinuousClock()
    private var opened = false
    /// Told how long the first page-changing command waited for the gate.
    var waited: (Duration) -> Void = { _ in }
    /// The gate's failure, if its sync failed (the command was not sent).
    private(set) var failure: LedgerError?

    init(_ inner: any Transceiver, gate: WriteGate) {
        self.inner = inner
        self.gate = gate
    }

    func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        if !opened, Type2CommandEffect.mayWrite(command) {
            do throws(LedgerError) {
                waited(try gate.pass(clock: clock))
            } catch {
                failure = error
                throw TransportError.transport("the ledger could not make the claim durable: \(error.message)")
            }
            opened = true
        }
        return try inner.transceive(command, timeoutMilliseconds: timeoutMilliseconds)
    }

    func reactivate() throws(TransportError) { try inner.reactivate() }

    var modelledAirtimeMicroseconds: Double? { inner.modelledAirtimeMicroseconds }

    var supportsRawCommands: Bool { inner.supportsRawCommands }
}
