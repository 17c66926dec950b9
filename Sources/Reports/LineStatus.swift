import Foundation
import Ledger

/// The live view of a job's line (`provision status`): rows by state, each station's reader with when it was
/// last seen, its rate and yield and its last failure, and the ETA at the line's recent rate. Pure: built from
/// the ledger's counts and station activity at a moment.
public struct LineStatus: Encodable, Sendable {
    /// One station's reader.
    public struct Station: Encodable, Sendable {
        public var reader: String
        /// Its last attempt's end.
        public var lastSeen: Date
        public var attempts: Int
        public var done: Int
        /// Tags done per hour over the recent window (0 when it did none there).
        public var tagsPerHour: Double
        /// Done ÷ attempts, in percent.
        public var yieldPercent: Double
        /// The last failure: class, detail, when.
        public var lastFailure: StationFailure?

        enum CodingKeys: String, CodingKey {
            case reader, lastSeenAt, attempts, done, tagsPerHour, yieldPercent, lastFailure
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(reader, forKey: .reader)
            try container.encode(JSONDocument.timestamp(lastSeen), forKey: .lastSeenAt)
            try container.encode(attempts, forKey: .attempts)
            try container.encode(done, forKey: .done)
            try container.encode((tagsPerHour * 10).rounded() / 10, forKey: .tagsPerHour)
            try container.encode((yieldPercent * 10).rounded() / 10, forKey: .yieldPercent)
            try container.encodeIfPresent(lastFailure, forKey: .lastFailure)
        }
    }

    enum CodingKeys: String, CodingKey {
        case version, job, at, pending, claimed, done, failed, burned, stations, tagsPerHour, etaSeconds
        case running, windowSeconds, leases, claims, outboxBacklog
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(job, forKey: .job)
        try container.encode(JSONDocument.timestamp(at), forKey: .at)
        try container.encode(pending, forKey: .pending)
        try container.encode(claimed, forKey: .claimed)
        try container.encode(done, forKey: .done)
        try container.encode(failed, forKey: .failed)
        try container.encode(burned, forKey: .burned)
        try container.encode(stations, forKey: .stations)
        try container.encode((tagsPerHour * 10).rounded() / 10, forKey: .tagsPerHour)
        try container.encode(etaSeconds.map { $0.rounded() }, forKey: .etaSeconds)
        try container.encode(running, forKey: .running)
        try container.encode(windowSeconds, forKey: .windowSeconds)
        try container.encode(leases, forKey: .leases)
        try container.encode(claims, forKey: .claims)
        try container.encode(outboxBacklog, forKey: .outboxBacklog)
    }

    /// The JSON shape's version (docs/json.md).
    public var version = JSONDocument.version
    public var job: String
    /// When the view was taken.
    public var at: Date
    public var pending: Int, claimed: Int, done: Int, failed: Int, burned: Int
    public var stations: [Station]
    /// The line's recent rate: every station's together.
    public var tagsPerHour: Double
    /// Seconds until the open rows are done at that rate; `nil` when nothing moves or no station is running.
    public var etaSeconds: Double?
    /// Whether a station of the job is running: on a ledger server, one of the job's stations holds a live
    /// lease; without leases (a ledger file, readers without a station), a reader was seen within `idleAfter`.
    public var running: Bool
    /// The window the rates are measured over, in seconds.
    public var windowSeconds: Double
    /// The stations' leases on a ledger server (empty for a SQLite ledger).
    public var leases: [Lease] = []
    /// The claimed rows, those whose station is gone marked stranded.
    public var claims: [Claim] = []
    /// The job's outbox events not yet published (with the events of no job; docs/events.md).
    public var outboxBacklog = 0

    /// The rates' window: long enough to smooth a tag's cycle, short enough to show a stalled station.
    public static let window: TimeInterval = 600

    /// Without leases, how long after its last attempt a reader still counts as running.
    public static let idleAfter: TimeInterval = 120

    /// The view of `job` from its `counts` and `activity` (measured since `at − window`).
    public init(job: String, counts: StateCounts, activity: [StationActivity], at: Date, window: TimeInterval = window)
    {
        self.job = job
        self.at = at
        (pending, claimed, done, failed, burned) = (
            counts.pending, counts.claimed, counts.done, counts.failed, counts.burned
        )
        windowSeconds = window
        stations = activity.map { station in
            // A station that started within the window is measured over the time it has run.
            let span = max(min(window, at.timeIntervalSince(station.firstAt)), 1)
            return Station(
                reader: station.reader, lastSeen: station.lastAt, attempts: station.attempts, done: station.done,
                tagsPerHour: Double(station.recentDone) * 3600 / span,
                yieldPercent: station.attempts == 0 ? 0 : Double(station.done) * 100 / Double(station.attempts),
                lastFailure: station.lastFailure)
        }
        tagsPerHour = stations.reduce(0) { $0 + $1.tagsPerHour }
        running = stations.contains { at.timeIntervalSince($0.lastSeen) <= Self.idleAfter }
        settleETA()
    }

    /// The ETA of the open rows at the line's rate: 0 when none is open, `nil` when nothing moves or no
    /// station is running.
    mutating func settleETA() {
        let open = Double(pending + claimed)
        etaSeconds = open == 0 ? 0 : tagsPerHour > 0 && running ? open * 3600 / tagsPerHour : nil
    }

    /// The view as text: a counts line, one line per station, the ETA.
    public var text: String {
        let total = pending + claimed + done + failed + burned
        var lines = [
            "job \(job): \(done)/\(total) done, \(failed) failed, \(burned) burned, "
                + "\(claimed) claimed, \(pending) pending"
        ]
        lines += leaseLines
        if stations.isEmpty { lines.append("no station has attempted a tag yet") }
        for station in stations {
            let ago = Self.duration(max(at.timeIntervalSince(station.lastSeen), 0))
            var line = "  \(station.reader)  last seen \(ago) ago · \(Int(station.tagsPerHour.rounded())) tags/h"
            line += String(format: " · yield %.1f %%", station.yieldPercent) + " · \(station.done) done"
            if let failure = station.lastFailure {
                line +=
                    " · last failure \(failure.failureClass) \(Self.duration(at.timeIntervalSince(failure.at))) ago: "
                    + failure.detail
            }
            lines.append(line)
        }
        let minutes = Int(windowSeconds / 60)
        switch etaSeconds {
        case 0?: lines.append("every row is resolved")
        case let eta?:
            lines.append("ETA \(Self.duration(eta)) at \(Int(tagsPerHour.rounded())) tags/h (last \(minutes) min)")
        case nil where !running: lines.append("no ETA: no station is running")
        case nil: lines.append("ETA unknown: no tag done in the last \(minutes) min")
        }
        lines.append("outbox: \(outboxBacklog) event\(outboxBacklog == 1 ? "" : "s") not yet published")
        lines += claimLines
        return lines.joined(separator: "\n") + "\n"
    }

    /// `h:mm:ss` or `m:ss`.
    public static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return total >= 3600
            ? String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
            : String(format: "%d:%02d", total / 60, total % 60)
    }
}

/// A station's last failure in `status --json`: `{class, detail, at}`.
extension StationFailure: Encodable {
    enum CodingKeys: String, CodingKey {
        case failureClass = "class"
        case detail, at
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(failureClass, forKey: .failureClass)
        try container.encode(detail, forKey: .detail)
        try container.encode(JSONDocument.timestamp(at), forKey: .at)
    }
}
