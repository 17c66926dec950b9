import NFCTags
import Synchronization

/// What a worker remembers across tags: when it last saw a usable tag, and the run of tags that failed
/// with one failure class.
///
/// A wrong reel (tags of another chip than the job takes) once failed every tag for ever: 111k attempts in ten
/// minutes; a job requiring a signature no trust key could verify did the same with 205k. Only a tag the
/// job finished is usable: a refused or failed tag (any class, and tags already provisioned, no row left)
/// lets idle time run on, and `maxConsecutiveFailures` tags in a row failing with one class pause the reader.
final class UsableTagTracker: Sendable {
    private struct State {
        var lastUsable: ContinuousClock.Instant
        var failureRun = 0
        var failureClass: FailureClass?
        var lastChip: TagChip?
        var lastWasUsable = true
        var waitingForWork = false
    }

    private let state: Mutex<State>

    /// Starts counting idle time now.
    init() { state = Mutex(State(lastUsable: .now)) }

    /// When the last usable tag was handled (or the worker started).
    var lastUsable: ContinuousClock.Instant { state.withLock { $0.lastUsable } }

    /// Records a usable (finished) tag: idle time and the failure run start again.
    func usable() {
        state.withLock {
            $0.lastUsable = .now
            $0.failureRun = 0
            $0.failureClass = nil
            $0.lastWasUsable = true
        }
    }

    /// Records a tag the job refused without counting it toward a pause (a tag this job already finished,
    /// presented again; no row left): idle time runs on, the failure run is neither extended nor broken.
    func refused() { state.withLock { $0.lastWasUsable = false } }

    /// Records a tag refused or failed with `failureClass` (`chip`: its chip, when identified): the run grows
    /// when the class is the run's, else a new run of one starts.
    func failed(_ failureClass: FailureClass, chip: TagChip? = nil) {
        state.withLock {
            if $0.failureClass == failureClass {
                $0.failureRun += 1
            } else {
                $0.failureClass = failureClass
                $0.failureRun = 1
                $0.lastChip = nil
            }
            $0.lastWasUsable = false
            $0.lastChip = chip ?? $0.lastChip
        }
    }

    /// Whether the last tag handled was usable.
    var lastWasUsable: Bool { state.withLock { $0.lastWasUsable } }

    /// The current run of same-class failures: its class and length (`nil` before any failure, or after a
    /// usable tag).
    var failureRun: (failureClass: FailureClass, count: Int)? {
        state.withLock { state in state.failureClass.map { ($0, state.failureRun) } }
    }

    /// Records whether the worker waits for work (`--wait`, every open row another station's); returns
    /// whether it has just started to, so the operator is told once.
    @discardableResult
    func waitingForWork(_ waiting: Bool) -> Bool {
        state.withLock { state in
            let started = waiting && !state.waitingForWork
            state.waitingForWork = waiting
            return started
        }
    }

    /// The chip of the run's last identified tag, if any.
    var lastChip: TagChip? { state.withLock { $0.lastChip } }
}
