import Foundation
import Ledger
import NFCTags

/// The one tag procedure every command uses, whatever the tag family: identify → status/capacity →
/// write → read back → configure → lock → protect, with the fewest exchanges the protocol needs.
///
/// `run` (with a ledger row), `write` and `lock` (one tag, no row) run it; `audit` and `inspect` use its
/// read-only steps. The pipeline knows only the `FamilyTag` seam and its optional capabilities: which
/// family handles a tag is decided by `TagFamilies` from the activation data, and every chip fact
/// stays in the family. Each step is a small file (`Pipeline/Steps`) with its failure classes.
///
/// The steps before the first change (identify, status) and the changing steps run in separate reader
/// calls when a write gate is still shut, so the claim's sync overlaps identify without blocking a thread.
public enum TagPipeline {
    /// What the job asks of the tag.
    public struct Plan: Sendable {
        /// What the pipeline does after identify.
        public enum Mode: Sendable, Hashable {
            /// Write `message` (and lock, protect, mirror as asked).
            case write
            /// Only the permanent lock, whatever the tag holds (`provision lock`).
            case lockOnly
        }

        /// Write, or lock only.
        public var mode: Mode
        /// The encoded NDEF message to write.
        public var message: [UInt8]
        /// Chips the job accepts (empty: any, including generic tags).
        public var acceptedChips: Set<TagChip>
        /// Whether to lock permanently after a byte-exact verify.
        public var lock: Bool
        /// Whether a blank tag (no CC) is formatted before detection, where its family can (`NDEFFormattable`).
        public var formatsBlankTags = false
        /// Re-activate before starting (a retry after silence, or a resumed tag).
        public var reactivateFirst: Bool
        /// The originality-signature check after identify (`nil`: no signature read).
        public var signature: SignatureCheck?
        /// The UID from anticollision; empty: read from the tag's memory.
        public var uid: [UInt8]
        /// What happens when the tag's memory disagrees with its anticollision identity.
        public var identityCheck: IdentityCheck
        /// Password protection to set after verify (and lock), if any.
        public var protection: ProtectionPlan?
        /// The UID/counter mirror to configure after verify, if any.
        public var mirror: MirrorPlan?
        /// Holds the first changing step until the row's claim is durable (`nil`: it already is).
        public var writeGate: WriteGate?
        /// Keyed personalisation, the family's plan, in place of write, lock and protection (`nil`: none).
        public var personalisation: (any KeyedPlan)?

        /// Creates a plan.
        public init(
            message: [UInt8], acceptedChips: Set<TagChip>, lock: Bool, reactivateFirst: Bool = false,
            signature: SignatureCheck? = nil, uid: [UInt8] = [], identityCheck: IdentityCheck = .refuse,
            protection: ProtectionPlan? = nil, mirror: MirrorPlan? = nil, writeGate: WriteGate? = nil,
            mode: Mode = .write
        ) {
            self.mode = mode
            self.writeGate = writeGate
            self.identityCheck = identityCheck
            self.mirror = mirror
            self.protection = protection
            self.uid = uid
            self.message = message
            self.acceptedChips = acceptedChips
            self.lock = lock
            self.reactivateFirst = reactivateFirst
            self.signature = signature
        }
    }

    /// How the pipeline ended for one tag.
    public struct Outcome: Sendable {
        /// `nil` on success.
        public var failure: CycleFailure?
        /// The chip identified, if any.
        public var chip: TagChip?
        /// Whether any write reached the tag (decides `onFailure` when the tag fails).
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
        /// The originality-signature result when the plan checked it.
        public var signature: SignatureStatus?
        /// Identity anomalies kept under `identityCheck: record` (in words), `nil` when there were none.
        public var identityAnomalies: String?
        /// Microseconds the first changing step waited for the write gate; not counted in any phase.
        public var gateWaitMicroseconds: Double = 0
        /// Why the write gate stayed shut (the claim's sync failed; nothing was written), if it did.
        public var gateFailure: LedgerError?
        /// The capacity NDEF detection found (0 when it did not run).
        public var capacity = 0
        /// The units written and skipped by the NDEF write, if it ran.
        public var written: NDEFWriteResult?
        /// Exchanges, writes and airtime per phase.
        public var phaseCosts: [Phase: TagOperationCost] = [:]
        /// The lock state read back after a lock (unit, bytes).
        public var lockReadBack: [LockedUnit] = []
        /// The family that handled the tag (`type2`), `nil` when none did.
        public var family: String?
        /// Whether a ChangeKey may have reached the tag (its keys are then the journal's to name).
        public var keysChanged = false
        /// The SUN read counter the read-back showed, when it showed one.
        public var sunCounter: UInt32?
        /// Microseconds the key journal waited for the ledger (inside the lock phase's wall time).
        public var journalMicroseconds = 0.0
    }

    /// A unit read back after the lock.
    public struct LockedUnit: Sendable, Hashable {
        /// The page or block.
        public var unit: Int
        /// Its bytes.
        public var bytes: [UInt8]
    }

    /// Runs `plan` on the tag behind `transceiver`, synchronously on the reader's queue. A write gate, if
    /// any, must already be open. Never throws: every failure is an outcome with its class.
    public static func run(
        _ plan: Plan, on transceiver: any Transceiver, activation: DetectedTag? = nil,
        families: TagFamilies = .standard
    ) -> Outcome {
        let run = PipelineRun(plan: plan, transceiver: transceiver, activation: activation, families: families)
        if run.prepare() { run.change() }
        return run.outcome()
    }

    /// Runs `plan` on `reader`'s selected tag: the read-only steps, then (after the write gate opens,
    /// awaited without blocking a thread) the changing steps. A reader that finds its tag gone around
    /// the calls (`TransportError.tagLost` from `withTransceiver` itself) ends it as `tagLost`; a reader that
    /// went away under a step (`TransportError.readerGone`) is thrown, not made a tag failure.
    public static func run(
        _ plan: Plan, on reader: any TagReader, activation: DetectedTag?, families: TagFamilies = .standard
    ) async throws -> Outcome {
        let box = RunBox()
        do {
            let proceed = try await reader.withTransceiver { transceiver in
                let run = PipelineRun(plan: plan, transceiver: transceiver, activation: activation, families: families)
                box.run = run
                let proceed = run.prepare()
                // The common case: the gate is open (or absent), so the changing steps need no second call.
                guard proceed, plan.writeGate?.isOpen ?? true else { return proceed }
                run.change()
                return false
            }
            if proceed, let gate = plan.writeGate, let run = box.run {
                if let failure = await run.waitForGate(gate) { return failure }
                try await reader.withTransceiver { transceiver in
                    box.run?.rebind(transceiver)
                    box.run?.change()
                }
            }
        } catch TransportError.tagLost {
            return box.run?.lostAfterwards() ?? PipelineRun.lostBefore()
        }
        // The reader went away mid-tag: no outcome to record; the claim stays with this UID for when it returns.
        if let gone = box.run?.readerLoss { throw gone }
        return box.run?.outcome() ?? PipelineRun.lostBefore()
    }
}

/// Carries one tag's pipeline state between the reader calls of one tag. Every access happens on that
/// reader's serial queue, one call after the other, or after the calls have returned.
final class RunBox: @unchecked Sendable {
    var run: PipelineRun?
}
