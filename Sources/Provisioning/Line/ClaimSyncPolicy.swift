import Synchronization

/// Decides, tag by tag, whether a claim's sync runs under the tag's identify and detection exchanges
/// (the first WRITE waits for it, `WriteGate`) or before the claim returns.
///
/// Running it underneath pays only when identify takes longer than the sync: on a real or
/// datasheet-timed reader identify is milliseconds of radio and the sync disappears under it; on an
/// instant simulator identify takes microseconds and the hand-over between threads would cost more than
/// it hides. So the line compares the two as measured on its previous tag (the first tag syncs at once).
final class ClaimSyncPolicy: Sendable {
    private struct Last {
        var identifyMicroseconds: Double?
        var syncMicroseconds: Double?
    }
    private let last = Mutex(Last())
    private let fixed: Bool?
    /// The sync cost to use in place of the measured one (tests): the machine's fsync under load must not
    /// decide which path a test takes.
    private let injectedSyncMicroseconds: Double?

    /// A policy that measures (`fixed == nil`), or one that always (`true`) or never (`false`) overlaps,
    /// for tests that must take one path whatever the machine's timing.
    init(fixed: Bool? = nil) {
        self.fixed = fixed
        self.injectedSyncMicroseconds = nil
    }

    /// A measuring policy whose every sync costs `syncMicroseconds`: the decision still follows the identify
    /// phases the line measures, against an injected sync instead of this machine's.
    init(syncMicroseconds: Double) {
        self.fixed = nil
        self.injectedSyncMicroseconds = syncMicroseconds
    }

    /// Whether the next claim should be synced in the background.
    var overlaps: Bool {
        if let fixed { return fixed }
        return last.withLock { last in
            guard let identify = last.identifyMicroseconds, let sync = last.syncMicroseconds else { return false }
            return identify > sync
        }
    }

    /// Records one tag: its identify phase (without any wait for the gate) and what its claim's sync cost
    /// (the background sync itself, or the whole synced claim).
    func record(identifyMicroseconds: Double?, syncMicroseconds: Double?) {
        let syncMicroseconds = syncMicroseconds.map { injectedSyncMicroseconds ?? $0 }
        last.withLock { last in
            if let identifyMicroseconds { last.identifyMicroseconds = identifyMicroseconds }
            if let syncMicroseconds { last.syncMicroseconds = syncMicroseconds }
        }
    }
}
