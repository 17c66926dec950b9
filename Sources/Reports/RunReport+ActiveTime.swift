import Foundation
import Provisioning

/// The time a line was running, so rates leave out the gaps between runs (a resumed job, a row appended
/// days later).
extension RunReport {
    /// Seconds the line was running: the union of the attempts' intervals, each from the start of its detection
    /// (the wait for the tag, which is line time) to the tag's removal. Time when no `run` was waiting for a tag
    /// is in no interval.
    ///
    /// A report whose attempts carry no phase times (older ledgers) falls back to first start → last end.
    public func activeSeconds() -> Double {
        let intervals = attempts.map { attempt -> (start: Date, end: Date) in
            let before = attempt.phaseMicroseconds.filter { $0.key != .removal }.values.reduce(0, +)
            let after = attempt.phaseMicroseconds[.removal] ?? 0
            return (attempt.time.addingTimeInterval(-before / 1e6), attempt.time.addingTimeInterval(after / 1e6))
        }
        .sorted { $0.start < $1.start }
        var total = 0.0
        var current: (start: Date, end: Date)?
        for interval in intervals {
            if let open = current, interval.start <= open.end {
                current = (open.start, max(open.end, interval.end))
            } else {
                if let open = current { total += open.end.timeIntervalSince(open.start) }
                current = interval
            }
        }
        if let open = current { total += open.end.timeIntervalSince(open.start) }
        if total > 0 { return total }
        guard let start = startedAt, let end = finishedAt, end > start else { return 0 }
        return end.timeIntervalSince(start)
    }
}
