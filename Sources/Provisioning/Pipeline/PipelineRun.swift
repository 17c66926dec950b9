import Foundation
import Ledger
import NFCTags
import Support

/// The mutable state of one tag's pass through `TagPipeline`: the family tag, what each step found,
/// and the time and radio cost per phase. The steps are extensions in `Steps/`, one file each.
final class PipelineRun {
    let plan: TagPipeline.Plan
    /// The reader's transceiver, swappable between reader calls.
    let link: TransceiverLink
    let activation: DetectedTag?
    let families: TagFamilies
    /// The tag, once its family is known.
    var tag: (any FamilyTag)?
    let clock = ContinuousClock()
    var phase: Phase = .identify
    var failure: CycleFailure?
    var chip: TagChip?
    var wroteSomething = false
    var alreadyWritten = false
    var locked = false
    var capacity = 0
    var written: NDEFWriteResult?
    var lockReadBack: [TagPipeline.LockedUnit] = []
    /// Wall time and radio cost per phase, in the order the phases first ran: a few entries, searched,
    /// so `timed` hashes no phase names (`outcome()` builds the dictionaries once).
    var phaseTotals: [PhaseTotal] = []
    var signature: SignatureStatus?
    var identityAnomalies: String?
    /// Whether the tag arrived password-protected (re-provisioning or a resumed tag).
    var wasProtected = false
    /// Whether the tag was read-only and already held the message (a resumed lock): only the lock remains.
    var onlyLockRemains = false
    var gateWait: Duration = .zero
    var gateFailure: LedgerError?
    var keysChanged = false
    var sunCounter: UInt32?
    /// The reader went away under a step (`TransportError.readerGone`): no tag failure, the caller pauses.
    var readerLoss: TransportError?

    init(plan: TagPipeline.Plan, transceiver: any Transceiver, activation: DetectedTag?, families: TagFamilies) {
        self.plan = plan
        self.link = TransceiverLink(transceiver)
        self.activation = activation
        self.families = families
    }

    /// The read-only steps: identify, then status and capacity. Returns whether the changing steps follow.
    func prepare() -> Bool {
        attempt {
            if plan.reactivateFirst { try timed(.identify) { try family().reactivate() } }
            try identifyStep()
            switch plan.mode {
            case .write: try statusStep()
            case .lockOnly: break
            }
        }
        return failure == nil
    }

    /// The changing steps, in order: write and read back, mirror, lock, protection.
    func change() {
        attempt {
            if plan.mode == .lockOnly || onlyLockRemains {
                try lockStep()
                return
            }
            if let personalisation = plan.personalisation {
                try personaliseStep(personalisation)
                return
            }
            try writeStep()
            try configureStep()
            if plan.lock { try lockStep() }
            try protectStep()
        }
    }

    /// The family tag (opened by the identify step).
    func family() throws -> any FamilyTag {
        if let tag { return tag }
        let opened = try families.open(link, activation: activation)
        tag = opened
        return opened
    }

    /// Points the tag at the transceiver of a later reader call.
    func rebind(_ transceiver: any Transceiver) { link.inner = transceiver }

    /// Waits for the claim to be durable before the changing steps, without blocking a thread.
    ///
    /// - Returns: the outcome when the sync failed (nothing was written), else `nil`.
    func waitForGate(_ gate: WriteGate) async -> TagPipeline.Outcome? {
        let start = clock.now
        do {
            try await gate.open()
        } catch {
            gateFailure = error
            failure = CycleFailure(
                .transport, phase: phase, "the ledger could not make the claim durable: \(error.message)")
            return outcome()
        }
        gateWait = clock.now - start
        return nil
    }

    func attempt(_ body: () throws -> Void) {
        guard failure == nil else { return }
        do {
            try body()
        } catch let failure as CycleFailure {
            self.failure = failure
        } catch {
            failure = CycleFailure(classifying: error, phase: phase)
            readerLoss = CycleFailure.readerLoss(in: error)
        }
    }

    /// Runs `body` as part of `phase`, adding its wall time and radio cost to the phase.
    func timed<R>(_ phase: Phase, _ body: () throws -> R) throws -> R {
        self.phase = phase
        let start = clock.now
        let before = tag?.cost
        defer {
            let elapsed = (clock.now - start).microseconds
            let index: Int
            if let known = phaseTotals.firstIndex(where: { $0.phase == phase }) {
                index = known
            } else {
                index = phaseTotals.count
                phaseTotals.append(PhaseTotal(phase: phase))
            }
            phaseTotals[index].micros += elapsed
            if let after = tag?.cost {
                if phaseTotals[index].cost == nil { phaseTotals[index].cost = TagOperationCost(name: phase.rawValue) }
                phaseTotals[index].cost?.add(after, since: before)
            }
        }
        return try body()
    }

    /// Per-phase wall time in microseconds, as `TagPipeline.Outcome` reports it.
    var micros: [Phase: Double] {
        Dictionary(uniqueKeysWithValues: phaseTotals.map { ($0.phase, $0.micros) })
    }

    /// Per-phase radio cost, as `TagPipeline.Outcome` reports it.
    var costs: [Phase: TagOperationCost] {
        Dictionary(uniqueKeysWithValues: phaseTotals.compactMap { total in total.cost.map { (total.phase, $0) } })
    }

    func outcome() -> TagPipeline.Outcome {
        let cost = tag?.cost
        var outcome = TagPipeline.Outcome(
            failure: failure, chip: chip, wroteSomething: wroteSomething, alreadyWritten: alreadyWritten,
            locked: locked, phaseMicroseconds: micros,
            exchanges: (cost?.exchanges ?? 0) + (cost?.reactivations ?? 0),
            airtimeMicroseconds: cost?.airtimeMicroseconds,
            signature: signature, identityAnomalies: identityAnomalies,
            gateWaitMicroseconds: gateWait.microseconds, gateFailure: gateFailure, capacity: capacity,
            written: written, phaseCosts: costs, lockReadBack: lockReadBack, family: tag?.family)
        outcome.keysChanged = keysChanged
        outcome.sunCounter = sunCounter
        outcome.journalMicroseconds = plan.personalisation?.journal.waitedMicroseconds ?? 0
        return outcome
    }

    /// The reader found its tag gone around the calls after the pipeline ran: never committed; the write
    /// may have reached either tag, so the claim stays with this UID.
    func lostAfterwards() -> TagPipeline.Outcome {
        var result = outcome()
        guard result.failure?.failureClass != .tagLost else { return result }
        let phase = result.failure?.phase ?? (plan.lock ? .lock : .verify)
        result.failure = CycleFailure(
            .tagLost, phase: phase, "the reader found another tag (or none) after the cycle; not committed")
        result.wroteSomething = true
        return result
    }

    /// No tag was selected when the reader call began.
    static func lostBefore() -> TagPipeline.Outcome {
        TagPipeline.Outcome(
            failure: CycleFailure(.tagLost, phase: .identify, "tag left the field"), chip: nil,
            wroteSomething: false, alreadyWritten: false, locked: false, phaseMicroseconds: [:],
            exchanges: 0, airtimeMicroseconds: nil)
    }
}

/// One phase's wall time and radio cost within a `PipelineRun`.
struct PhaseTotal {
    var phase: Phase
    var micros = 0.0
    /// `nil` until the phase ran with the family tag open.
    var cost: TagOperationCost?
}

extension TagOperationCost {
    /// Adds what happened between `before` (`nil`: nothing yet) and `after`.
    mutating func add(_ after: TagOperationCost, since before: TagOperationCost?) {
        exchanges += after.exchanges - (before?.exchanges ?? 0)
        reactivations += after.reactivations - (before?.reactivations ?? 0)
        writes += after.writes - (before?.writes ?? 0)
        if let airtime = after.airtimeMicroseconds {
            airtimeMicroseconds = (airtimeMicroseconds ?? 0) + airtime - (before?.airtimeMicroseconds ?? 0)
        }
    }
}

/// A transceiver that forwards to the reader's current one, so a family tag outlives one reader call.
final class TransceiverLink: Transceiver {
    var inner: any Transceiver

    init(_ inner: any Transceiver) { self.inner = inner }

    func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        try inner.transceive(command, timeoutMilliseconds: timeoutMilliseconds)
    }

    func reactivate() throws(TransportError) { try inner.reactivate() }

    var modelledAirtimeMicroseconds: Double? { inner.modelledAirtimeMicroseconds }

    var supportsRawCommands: Bool { inner.supportsRawCommands }
}
