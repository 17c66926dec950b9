import Foundation
import NDEF
import NFCTags

/// One tag's work on the antenna — identify, check, write, verify, lock — run synchronously on the
/// reader's own queue inside `TagReader.withTransceiver`, with the fewest exchanges the protocol needs.
///
/// Exchange sequence on a factory NTAG21x (`line-timing.md` §4): GET_VERSION `60`; READ `30 00` (UID,
/// static locks, CC) and READ `30 04` (TLV area); the WRITEs `A2` of the tear-safe order; re-activation
/// and FAST_READ `3A` of the written pages; with lock: CC, static and dynamic lock WRITEs, re-activation
/// and read-back. No probing, no re-detection between phases.
///
/// On a reader path without raw commands (PC/SC style `plain`) there is no GET_VERSION: the chip is
/// taken from the data-area size in the CC (CC2 `12h` NTAG213, `3Eh` NTAG215, `6Dh` NTAG216), verify
/// reads with READ `30h`, and a CC of another size is a generic Type 2 tag (refused when the job
/// names chips).
public struct TagCycle: Sendable {
    /// What the job asks of the tag.
    public struct Plan: Sendable {
        /// The encoded NDEF message to write.
        public var message: [UInt8]
        /// Chips the job accepts (empty: any, including generic Type 2 tags).
        public var acceptedChips: Set<ChipModel>
        /// Whether to lock permanently after a byte-exact verify.
        public var lock: Bool
        /// Re-activate before starting (a retry after silence, or a resumed tag).
        public var reactivateFirst: Bool

        /// Creates a plan.
        public init(message: [UInt8], acceptedChips: Set<ChipModel>, lock: Bool, reactivateFirst: Bool = false) {
            self.message = message
            self.acceptedChips = acceptedChips
            self.lock = lock
            self.reactivateFirst = reactivateFirst
        }
    }

    /// How the cycle ended.
    public struct Outcome: Sendable {
        /// `nil` on success.
        public var failure: CycleFailure?
        /// The chip identified, if any.
        public var chip: ChipModel?
        /// Whether any WRITE reached the tag (decides `onFailure` when the cycle fails).
        public var wroteSomething: Bool
        /// Whether the tag already held the message (a resumed tag finished before a crash).
        public var alreadyWritten: Bool
        /// Whether the tag ended locked.
        public var locked: Bool
        /// Measured microseconds per phase (identify, write, verify, lock).
        public var phaseMicroseconds: [Phase: Double]
        /// Exchanges with the tag (commands and re-activations).
        public var exchanges: Int
        /// Modelled airtime (µs) when the reader models it.
        public var airtimeMicroseconds: Double?
    }

    /// Runs the cycle for `plan` on the tag behind `transceiver`. Never throws: every failure is an
    /// outcome with its class.
    public static func run(_ plan: Plan, on transceiver: any Transceiver) -> Outcome {
        let run = Runner(tag: Type2Tag(transceiver: transceiver), plan: plan, rawPath: transceiver.supportsRawCommands)
        run.execute()
        return run.outcome()
    }
}

/// The mutable state of one cycle.
private final class Runner {
    let tag: Type2Tag
    let plan: TagCycle.Plan
    /// Whether the reader path can send GET_VERSION (else the chip is judged by the CC size).
    let rawPath: Bool
    let clock = ContinuousClock()
    var phase: Phase = .identify
    var failure: CycleFailure?
    var chip: ChipModel?
    var wroteSomething = false
    var alreadyWritten = false
    var locked = false
    var micros: [Phase: Double] = [:]

    init(tag: Type2Tag, plan: TagCycle.Plan, rawPath: Bool) {
        self.tag = tag
        self.plan = plan
        self.rawPath = rawPath
    }

    func execute() {
        do {
            if plan.reactivateFirst { try timed(.identify) { try tag.reactivate() } }
            let area = try timed(.identify) { () throws -> NDEFArea in
                let identity = try tag.identify()
                chip = identity.chip
                guard identity.chip == nil, !rawPath else {
                    try checkChip(identity.chip, how: "")
                    return try tag.detectNDEF()
                }
                // No raw path (PC/SC style plain): GET_VERSION cannot be sent, so the chip is judged by
                // the data-area size its CC declares (CC2 of the factory CC, `type2-ntag.md` §5.1).
                let area = try tag.detectNDEF()
                chip = ChipModel.allCases.first { $0.factoryCC[2] != 0 && $0.factoryCC[2] == area.cc.bytes[2] }
                try checkChip(chip, how: " by its CC size (the reader cannot send GET_VERSION)")
                if let chip { tag.assume(chip) }
                return area
            }
            if area.isReadOnly {
                try finishOnReadOnlyTag(area)
                return
            }
            guard plan.message.count <= area.capacity else {
                throw CycleFailure(
                    .capacity, phase: .identify,
                    "message is \(plan.message.count) bytes, the tag holds at most \(area.capacity)")
            }
            let result = try timed(.write) { try tag.writeNDEF(plan.message) }
            wroteSomething = !result.writtenPages.isEmpty
            alreadyWritten = result.writtenPages.isEmpty
            try timed(.verify) { try tag.verify(result) }
            if plan.lock {
                try timed(.lock) { try tag.writeLock() }
                locked = true
            }
        } catch let failure as CycleFailure {
            self.failure = failure
        } catch {
            failure = CycleFailure(classifying: error, phase: phase)
        }
    }

    /// Refuses a chip the job does not accept (any chip, and generic tags, when the job names none).
    func checkChip(_ chip: ChipModel?, how: String) throws {
        guard !plan.acceptedChips.isEmpty else { return }
        guard let chip, plan.acceptedChips.contains(chip) else {
            throw CycleFailure(
                .wrongChip, phase: .identify,
                "tag is \(chip?.displayName ?? "a generic Type 2 tag")\(how), the job expects "
                    + plan.acceptedChips.map(\.displayName).sorted().joined(separator: " or "))
        }
    }

    /// A read-only tag is a failure, unless it is a resumed tag that already holds this very message
    /// and the job locks: then the crash or tear came during or after the lock. CC3 is written first, so
    /// the lock bits may still be clear: `writeLock` finishes them (steps already in effect are skipped)
    /// and reads them back before the row can be committed.
    func finishOnReadOnlyTag(_ area: NDEFArea) throws {
        guard plan.lock else {
            throw CycleFailure(.readOnly, phase: .identify, "tag is read-only")
        }
        let current = try timed(.verify) { try tag.readNDEF() }
        guard current == plan.message else {
            throw CycleFailure(.readOnly, phase: .identify, "tag is read-only and holds another message")
        }
        try timed(.lock) { try tag.writeLock() }
        alreadyWritten = true
        locked = true
    }

    func timed<R>(_ phase: Phase, _ body: () throws -> R) throws -> R {
        self.phase = phase
        let start = clock.now
        defer { micros[phase, default: 0] += Self.microseconds(clock.now - start) }
        return try body()
    }

    static func microseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1_000_000 + Double(parts.attoseconds) / 1e12
    }

    func outcome() -> TagCycle.Outcome {
        TagCycle.Outcome(
            failure: failure, chip: chip, wroteSomething: wroteSomething, alreadyWritten: alreadyWritten,
            locked: locked, phaseMicroseconds: micros, exchanges: tag.total.exchanges + tag.total.reactivations,
            airtimeMicroseconds: tag.total.airtimeMicroseconds)
    }
}
