/// The one pause-and-try-again loop for something that went away and may come back (a ledger server, a
/// reader): pause, try, double the pause up to a ceiling, until a try succeeds, a deadline passes or the
/// operator asks to stop. `LedgerOutage` and the line worker's reader pause both run on it.
public struct Backoff: Sendable {
    /// How a pause ended.
    public enum End: Sendable, Equatable {
        /// A try succeeded after this long.
        case back(after: Duration)
        /// The deadline passed first.
        case expired
        /// The operator asked to stop.
        case stopped
    }

    /// The first pause; each failed try doubles it, up to `longestPause`.
    public var firstPause: Duration
    /// The longest pause between two tries.
    public var longestPause: Duration

    /// A backoff from `firstPause` doubling to `longestPause`.
    public init(firstPause: Duration, longestPause: Duration) {
        self.firstPause = firstPause
        self.longestPause = longestPause
    }

    /// Pauses, then calls `attempt`, until it returns `true`; nothing else runs meanwhile.
    ///
    /// - Parameters:
    ///   - deadline: asked before every pause (it may move: `nil` is no deadline); once it has passed the wait
    ///     ends `.expired`, and the last pause ends at it.
    ///   - stop: ends a pause at once, and the wait `.stopped`.
    ///   - attempt: one try; `false` or a thrown error it wants tried again is its own to map (it throws to give
    ///     up).
    /// - Throws: what `attempt` throws; cancellation.
    public func wait(
        deadline: () -> ContinuousClock.Instant? = { nil }, stop: StopRequest? = nil,
        attempt: () async throws -> Bool
    ) async throws -> End {
        let clock = ContinuousClock()
        let started = clock.now
        var pause = firstPause
        while true {
            let now = clock.now
            let limit = deadline()
            if let limit, now >= limit { return .expired }
            try await sleep(limit.map { min(pause, $0 - now) } ?? pause, stop: stop)
            if stop?.isRequested == true { return .stopped }
            if try await attempt() { return .back(after: clock.now - started) }
            pause = min(pause * 2, longestPause)
        }
    }

    /// Sleeps for `duration`, or until `stop` is requested.
    private func sleep(_ duration: Duration, stop: StopRequest?) async throws {
        guard let stop else { return try await Task.sleep(for: duration) }
        do {
            try await stop.interruptible { try await Task.sleep(for: duration) }
        } catch is CancellationError where stop.isRequested {
            // The operator asked to stop: the caller gives up.
        }
    }
}
