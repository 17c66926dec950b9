import NFCTags
import Synchronization

/// What a worker remembers across tags: when it last saw a usable tag, and the run of wrong chips.
///
/// A wrong reel (NTAG215 tags on an NTAG213 job) once failed every tag for ever: 111k attempts in ten
/// minutes, and `--idle` never fired because tags kept arriving. Tags the job must refuse (wrong chip,
/// already provisioned, no row left) do not count as usable, so idle time runs on, and a run of
/// `maxWrongChip` wrong chips pauses the reader.
final class UsableTagTracker: Sendable {
    private struct State {
        var lastUsable: ContinuousClock.Instant
        var wrongChipRun = 0
        var lastWrongChip: TagChip?
        var lastWasUsable = true
    }

    private let state: Mutex<State>

    /// Starts counting idle time now.
    init() { state = Mutex(State(lastUsable: .now)) }

    /// When the last usable tag was handled (or the worker started).
    var lastUsable: ContinuousClock.Instant { state.withLock { $0.lastUsable } }

    /// Records a usable tag: idle time and the wrong-chip run start again.
    func usable() {
        state.withLock {
            $0.lastUsable = .now
            $0.wrongChipRun = 0
            $0.lastWasUsable = true
        }
    }

    /// Records a tag the job refused for another reason than its chip (duplicate, no row left).
    func refused() { state.withLock { $0.lastWasUsable = false } }

    /// Whether the last tag handled was usable.
    var lastWasUsable: Bool { state.withLock { $0.lastWasUsable } }

    /// The length of the current run of wrong-chip tags.
    var wrongChipRun: Int { state.withLock { $0.wrongChipRun } }

    /// Records a wrong chip (`seen`, when identified).
    func wrongChip(_ seen: TagChip?) {
        state.withLock {
            $0.wrongChipRun += 1
            $0.lastWasUsable = false
            $0.lastWrongChip = seen ?? $0.lastWrongChip
        }
    }

    /// The chip of the last wrong-chip tag, if it was identified.
    var lastWrongChip: TagChip? { state.withLock { $0.lastWrongChip } }
}
