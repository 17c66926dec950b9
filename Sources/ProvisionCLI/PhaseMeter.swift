import Foundation
import NFCTags
import Provisioning
import Reports
import Support

/// What one phase of a tag cycle cost: exchanges, WRITEs, re-activations, modelled radio time and
/// wall time (`docs/reference/rf-timing.md` §4–§5).
struct PhaseCost: Sendable, Hashable, Codable {
    /// The phase name (`identify`, `check`, `write`, `verify`, `lock`, `read`, …).
    var name: String
    /// Command/answer exchanges.
    var exchanges = 0
    /// WRITE commands among the exchanges.
    var writes = 0
    /// Re-activations (HLTA + WUPA + anticollision + SELECT).
    var reactivations = 0
    /// Modelled radio time in microseconds, `nil` when the reader cannot know it (real hardware).
    var airtimeMicroseconds: Double?
    /// Measured wall time in seconds.
    var wallSeconds = 0.0

    /// The sum of `costs` under `name` (airtime `nil` if any part is unknown).
    static func sum(_ costs: [PhaseCost], name: String = "total") -> PhaseCost {
        var total = PhaseCost(name: name, airtimeMicroseconds: 0)
        for cost in costs {
            total.exchanges += cost.exchanges
            total.writes += cost.writes
            total.reactivations += cost.reactivations
            total.wallSeconds += cost.wallSeconds
            if let air = cost.airtimeMicroseconds, let sum = total.airtimeMicroseconds {
                total.airtimeMicroseconds = sum + air
            } else {
                total.airtimeMicroseconds = nil
            }
        }
        return total
    }

    /// Encodes every field, airtime and wall time rounded (`JSONPrecision`: 0.1 µs, 1 µs).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(exchanges, forKey: .exchanges)
        try container.encode(writes, forKey: .writes)
        try container.encode(reactivations, forKey: .reactivations)
        try container.encodeIfPresent(airtimeMicroseconds.rounded(.microseconds), forKey: .airtimeMicroseconds)
        try container.encode(wallSeconds.rounded(.seconds), forKey: .wallSeconds)
    }

    /// One human-readable line: `write      12 exchanges (9 WRITE)  modelled 51.2 ms  wall 3.1 ms`.
    var line: String {
        var text = name.padding(toLength: 9, withPad: " ", startingAt: 0)
        text += String(format: "%4d", exchanges) + (exchanges == 1 ? " exchange" : " exchanges")
        if writes > 0 { text += " (\(writes) WRITE)" }
        if reactivations > 0 { text += ", \(reactivations) re-activation" + (reactivations == 1 ? "" : "s") }
        if let airtimeMicroseconds {
            text += String(format: "  modelled %.1f ms", airtimeMicroseconds / 1000)
        } else {
            text += "  modelled n/a"
        }
        text += String(format: "  wall %.1f ms", wallSeconds * 1000)
        return text
    }
}

extension PhaseCost {
    /// The pipeline's phases in order (identify, write, verify, lock), those that ran.
    static func phases(of outcome: TagPipeline.Outcome) -> [PhaseCost] {
        [Phase.identify, .write, .verify, .lock].compactMap { phase in
            guard let cost = outcome.phaseCosts[phase] else { return nil }
            return PhaseCost(
                name: phase.rawValue, exchanges: cost.exchanges, writes: cost.writes,
                reactivations: cost.reactivations, airtimeMicroseconds: cost.airtimeMicroseconds,
                wallSeconds: (outcome.phaseMicroseconds[phase] ?? 0) / 1_000_000)
        }
    }
}

/// Splits the work done through one tag into named phases, from the tag's own counters.
///
/// Not `Sendable`, like the tag it watches: it lives inside one `withTransceiver` closure on the
/// reader's queue; hand its `phases` (Sendable values) back out.
final class PhaseMeter {
    /// The tag's running total.
    private let total: () -> TagOperationCost
    /// Completed phases, in order (a phase that threw is included).
    private(set) var phases: [PhaseCost] = []

    /// Watches a tag of any family.
    init(_ tag: any FamilyTag) { total = { tag.cost } }

    /// Runs `body` as phase `name`, recording what it cost even when it throws.
    func run<R>(_ name: String, _ body: () throws -> R) rethrows -> R {
        let before = total()
        let clock = ContinuousClock()
        let start = clock.now
        defer {
            let after = total()
            let elapsed = clock.now - start
            var cost = PhaseCost(name: name)
            cost.exchanges = after.exchanges - before.exchanges
            cost.writes = after.writes - before.writes
            cost.reactivations = after.reactivations - before.reactivations
            if let end = after.airtimeMicroseconds {
                cost.airtimeMicroseconds = end - (before.airtimeMicroseconds ?? 0)
            }
            cost.wallSeconds = elapsed.seconds
            phases.append(cost)
        }
        return try body()
    }
}
