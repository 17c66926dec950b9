import Ledger
import Synchronization

/// Ledger-commit and removal times of done tags, kept until the worker writes them in one batch.
final class LateTimings: Sendable {
    private let entries = Mutex<[Ledger.LateTiming]>([])

    /// Adds one entry; returns how many are waiting.
    func add(_ timing: Ledger.LateTiming) -> Int {
        entries.withLock {
            $0.append(timing)
            return $0.count
        }
    }

    /// Takes every waiting entry.
    func drain() -> [Ledger.LateTiming] {
        entries.withLock { entries in
            defer { entries.removeAll() }
            return entries
        }
    }
}
