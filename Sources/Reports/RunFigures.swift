import Foundation
import NFCTags
import Provisioning

/// The figures a line supervisor reads: throughput, yield, failures by class, per-phase percentiles,
/// exchanges and modelled airtime per tag. Computed from a `RunReport` only.
public struct RunFigures: Sendable, Hashable, Codable {
    /// p50 / p95 / max of one phase, in milliseconds.
    public struct Spread: Sendable, Hashable, Codable {
        public var count: Int
        public var p50: Double
        public var p95: Double
        public var max: Double
    }

    /// Tags done per hour of the time the line was running (`RunReport.activeSeconds`: the gaps between
    /// runs are left out).
    public var tagsPerHour: Double
    /// Share of attempted rows done on their first attempt (0…1).
    public var firstPassYield: Double
    /// Attempts beyond the first per row.
    public var retries: Int
    /// Failed attempts by class (duplicates included).
    public var failuresByClass: [FailureClass: Int]
    /// Per-phase spreads over successful attempts.
    public var phases: [Phase: Spread]
    /// Mean exchanges per tag done.
    public var exchangesPerTag: Double
    /// Mean modelled airtime per tag done (ms), when modelled.
    public var airtimePerTagMilliseconds: Double?
    /// Mean measured tag-work time per tag done (identify … ledger, ms).
    public var measuredPerTagMilliseconds: Double
    /// Measured ÷ modelled, when modelled (1.0 means the software adds nothing).
    public var measuredOverAirtime: Double?
    /// Whether the modelled airtime includes Type 4 processing times, which are assumptions.
    public var airtimeHasAssumptions = false
    /// The assumption notes of the families in the run, in order of first appearance.
    public var airtimeAssumptionNotes: [String] = []

    /// Computes the figures of `report`.
    public init(_ report: RunReport) {
        let successes = report.attempts.filter { $0.failure == nil }
        let seconds = report.activeSeconds()
        tagsPerHour = seconds > 0 ? Double(report.rows.done) / seconds * 3600 : 0
        var attemptsPerRow: [Int: Int] = [:]
        var firstOutcome: [Int: Bool] = [:]
        for attempt in report.attempts {
            guard let row = attempt.row else { continue }
            attemptsPerRow[row, default: 0] += 1
            if firstOutcome[row] == nil { firstOutcome[row] = attempt.failure == nil }
        }
        firstPassYield =
            firstOutcome.isEmpty
            ? 0 : Double(firstOutcome.values.filter { $0 }.count) / Double(firstOutcome.count)
        retries = attemptsPerRow.values.reduce(0) { $0 + $1 - 1 }
        var byClass: [FailureClass: Int] = [:]
        for attempt in report.attempts { if let failure = attempt.failure { byClass[failure, default: 0] += 1 } }
        failuresByClass = byClass
        var phases: [Phase: Spread] = [:]
        for phase in Phase.allCases {
            let values = successes.compactMap { $0.phaseMicroseconds[phase] }.map { $0 / 1000 }
            if !values.isEmpty { phases[phase] = Self.spread(values) }
        }
        self.phases = phases
        let count = Double(max(successes.count, 1))
        exchangesPerTag = Double(successes.reduce(0) { $0 + $1.exchanges }) / count
        let work = successes.map { attempt in Phase.tagWork.reduce(0.0) { $0 + (attempt.phaseMicroseconds[$1] ?? 0) } }
        measuredPerTagMilliseconds = work.reduce(0, +) / count / 1000
        let airtimes = successes.compactMap(\.airtimeMicroseconds)
        if !airtimes.isEmpty, airtimes.count == successes.count {
            let air = airtimes.reduce(0, +) / count / 1000
            airtimePerTagMilliseconds = air
            measuredOverAirtime = air > 0 ? measuredPerTagMilliseconds / air : nil
            var notes: [String] = []
            for tag in report.tags {
                guard let family = TagFamilies.standard.named(tag.family), family.airtimeAssumesProcessingTimes,
                    let note = family.airtimeAssumptionNote, !notes.contains(note)
                else { continue }
                notes.append(note)
            }
            airtimeAssumptionNotes = notes
            airtimeHasAssumptions = !notes.isEmpty
        } else {
            airtimePerTagMilliseconds = nil
            measuredOverAirtime = nil
        }
    }

    /// Why measured ÷ airtime is below 1, when it is; `nil` otherwise.
    ///
    /// Only a reader that accounts modelled radio time without waiting for it can finish a tag faster
    /// than its radio floor: the simulator with `timing=instant` (its default). Every summary that shows
    /// the ratio adds this sentence when the ratio is below 1.
    public var belowFloorNote: String? {
        guard let ratio = measuredOverAirtime, ratio < 1 else { return nil }
        return "Measured ÷ airtime (the modelled radio floor) is below 1 because with timing=instant the "
            + "simulator only accounts the modelled radio time without waiting for it, so a tag's measured work "
            + "can take less than that floor; timing=datasheet really waits, and the ratio is then 1 or more."
    }

    /// The notes under the airtime figures: why the ratio is below 1, and each family's note on the processing
    /// times its model assumes (`TagFamily.airtimeAssumptionNote`).
    public var airtimeNotes: [String] { (belowFloorNote.map { [$0] } ?? []) + airtimeAssumptionNotes }

    /// Nearest-rank percentiles of `values` (not empty).
    static func spread(_ values: [Double]) -> Spread {
        let sorted = values.sorted()
        func rank(_ p: Double) -> Double {
            let index = Int((p * Double(sorted.count)).rounded(.up)) - 1
            return sorted[min(max(index, 0), sorted.count - 1)]
        }
        return Spread(count: sorted.count, p50: rank(0.5), p95: rank(0.95), max: sorted[sorted.count - 1])
    }
}
