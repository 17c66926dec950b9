import Foundation
import Ledger

/// One job's verifier of tap URLs against its ledger, whatever the chip: a keyed job's dynamic message
/// (`TapJobVerifier`, SUN) or an NTAG21x job's MAC in the URL with its mirrors (`MACMirrorVerifier`). `TapService`
/// holds one per job, so `verify-url` and `serve` verify every job the same way.
public protocol TapVerifier: Sendable {
    /// The job name (its rows and counters in the ledger).
    var job: String { get }

    /// Checks `url` and, when its counter is accepted, records it in `ledger` (the check and the move forward are
    /// one atomic store operation).
    ///
    /// - Throws: `LedgerError` when the ledger cannot be read or written; a bad URL is a verdict, not an error.
    func verify(url: String, ledger: any LedgerStore, at time: Date) async throws(LedgerError) -> TapJobVerdict
}

extension TapJobVerifier: TapVerifier {}
