import Synchronization

/// Which readers of a run are gone and since when, shared by the run's workers: a reader that went away pauses
/// its worker until it returns, and the run gives up only once every reader still working has been gone for
/// `timeout` (`run --reader-timeout`; `nil`: wait for ever).
public final class ReaderAbsence: Sendable {
    private struct State {
        /// The readers whose workers run.
        var working: Set<String> = []
        /// When each gone reader went away.
        var goneSince: [String: ContinuousClock.Instant] = [:]
    }

    /// How long every reader must have been gone before the run stops (`nil`: wait for ever).
    public let timeout: Duration?
    private let state = Mutex(State())

    /// A tracker for one run's readers.
    public init(timeout: Duration? = nil) {
        self.timeout = timeout
    }

    /// A worker starts on `reader`.
    func started(_ reader: String) {
        state.withLock { _ = $0.working.insert(reader) }
    }

    /// A worker ended: its reader counts no more.
    func ended(_ reader: String) {
        state.withLock { state in
            state.working.remove(reader)
            state.goneSince[reader] = nil
        }
    }

    /// `reader` went away now (the first time counts).
    func gone(_ reader: String, at now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            if state.goneSince[reader] == nil { state.goneSince[reader] = now }
        }
    }

    /// `reader` is back.
    func back(_ reader: String) {
        state.withLock { $0.goneSince[reader] = nil }
    }

    /// When the run gives up: `timeout` after the last working reader went away, once every one is gone;
    /// `nil` while one still works, or without a timeout.
    func deadline() -> ContinuousClock.Instant? {
        guard let timeout else { return nil }
        return state.withLock { state -> ContinuousClock.Instant? in
            var latest: ContinuousClock.Instant?
            for reader in state.working {
                guard let since = state.goneSince[reader] else { return nil }
                latest = max(latest ?? since, since)
            }
            return latest.map { $0 + timeout }
        }
    }
}
