import Foundation
import Ledger
import Support
import Synchronization

/// The job's progress for the live status line: its rows done and in all as the ledger counts them (every
/// station's work, not only this process's), this process's share, and the whole line's rate.
///
/// The ledger is asked at most once per `interval`, off the tag path: a status line that finds the counts
/// older than that starts one refresh in the background and shows what it has meanwhile.
final class JobTotals: Sendable {
    /// What the status line shows.
    struct Snapshot: Sendable, Hashable {
        /// The job's rows done (every station) and in all.
        var done: Int, total: Int
        /// The rows this process did.
        var here: Int
        /// The whole line's rate since this process started, tags per minute.
        var perMinute: Double
        /// Seconds until the open rows are done at that rate; `nil` while nothing moved.
        var etaSeconds: Double?
    }

    private struct State {
        var done: Int
        var total: Int
        /// Failed and burned rows: resolved, never done.
        var closed: Int
        var here = 0
        var refreshedAt: ContinuousClock.Instant
        var refresh: Task<Void, Never>?
    }

    /// What this process calls itself on the line (`station s1`, `this run`).
    let shareLabel: String
    private let doneAtStart: Int
    private let started: ContinuousClock.Instant
    private let interval: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let fetch: (@Sendable () async -> StateCounts?)?
    private let state: Mutex<State>

    /// Starts from the ledger's `counts` at start-up; `fetch` reads them again (`nil` on a failed read, which
    /// keeps the last counts), `now` is the clock the rate and the refresh interval are measured on.
    init(
        counts: StateCounts, shareLabel: String, interval: Duration = .seconds(1),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        fetch: (@Sendable () async -> StateCounts?)?
    ) {
        self.shareLabel = shareLabel
        self.interval = interval
        self.now = now
        self.fetch = fetch
        let start = now()
        started = start
        doneAtStart = counts.done
        state = Mutex(
            State(done: counts.done, total: counts.total, closed: counts.failed + counts.burned, refreshedAt: start))
    }

    /// Counts a row this process finished (seen in the ledger only at the next refresh).
    func recordDone() {
        state.withLock { state in
            state.done = min(state.done + 1, state.total)
            state.here += 1
        }
    }

    /// The figures now; starts a background refresh when the counts are older than the interval.
    func snapshot() -> Snapshot {
        let now = now()
        let (done, total, closed, here) = state.withLock { state in
            if fetch != nil, state.refresh == nil, now - state.refreshedAt >= interval {
                state.refreshedAt = now
                state.refresh = Task { await self.refresh() }
            }
            return (state.done, state.total, state.closed, state.here)
        }
        let minutes = (now - started).seconds / 60
        let rate = minutes > 0 ? Double(max(done - doneAtStart, 0)) / minutes : 0
        let remaining = max(total - done - closed, 0)
        let eta = remaining == 0 ? 0 : rate > 0 ? Double(remaining) / rate * 60 : nil
        return Snapshot(done: done, total: total, here: here, perMinute: rate, etaSeconds: eta)
    }

    /// Reads the counts again. The ledger's done rows include this process's up to the read; rows it finished
    /// after are already counted here, so the larger count stands until the next refresh.
    func refresh() async {
        let counts = await fetch?()
        state.withLock { state in
            if let counts {
                state.total = counts.total
                state.done = max(counts.done, state.done)
                state.closed = counts.failed + counts.burned
            }
            state.refresh = nil
        }
    }

    /// Waits for a refresh under way (tests).
    func settled() async {
        await state.withLock { $0.refresh }?.value
    }
}
