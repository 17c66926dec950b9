import Foundation
import Ledger
import NDEF
import NFCTags
import Support

/// One tag's work on the antenna — identify, check, write, verify, lock — run synchronously on the
/// reader's own queue inside `TagReader.withTransceiver`, with the fewest exchanges the protocol needs.
///
/// Exchange sequence on a factory NTAG21x (`line-timing.md` §4, `type2-ntag.md` §11): GET_VERSION
/// `60`; READ `30` of the dynamic lock page (lock bytes, CFG0 with AUTH0, CFG1 with CFGLCK: the
/// pre-write checks); one FAST_READ `3A 00 04` (`3A 00 05` on NTAG213) for UID, static locks, CC and
/// the TLV head; the WRITEs `A2` of the tear-safe order; re-activation and FAST_READ of the written
/// pages; with lock: CC, static and dynamic lock WRITEs, re-activation and read-back (READ `30 02`,
/// READ of the lock page). No probing, no re-detection between phases.
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
        /// The originality-signature check after identify (`nil`: no READ_SIG).
        public var signature: SignatureCheck?
        /// The UID from anticollision (the signed message); empty: read from pages 0–1.
        public var uid: [UInt8]
        /// What happens when pages 0–2 disagree with `uid`, a BCC or INT (`type2-ntag.md` §11).
        public var identityCheck: IdentityCheck
        /// Password protection to set after verify (and lock), if any.
        public var protection: ProtectionPlan?
        /// The UID/counter mirror to configure after verify, if any.
        public var mirror: MirrorPlan?
        /// Holds the first page-changing command until the row's claim is durable (`nil`: it already is).
        public var writeGate: WriteGate?

        /// Creates a plan.
        public init(
            message: [UInt8], acceptedChips: Set<ChipModel>, lock: Bool, reactivateFirst: Bool = false,
            signature: SignatureCheck? = nil, uid: [UInt8] = [], identityCheck: IdentityCheck = .refuse,
            protection: ProtectionPlan? = nil, mirror: MirrorPlan? = nil, writeGate: WriteGate? = nil
        ) {
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
        /// The originality-signature result when the plan checked it.
        public var signature: SignatureStatus?
        /// Identity anomalies kept under `identityCheck: record` (in words), `nil` when there were none.
        public var identityAnomalies: String?
        /// Microseconds the first page-changing command waited for the write gate (the claim's sync);
        /// not counted in any tag phase.
        public var gateWaitMicroseconds: Double = 0
        /// Why the write gate stayed shut (the claim's sync failed; nothing was written), if it did.
        public var gateFailure: LedgerError?
    }

    /// Runs the cycle for `plan` on the tag behind `transceiver`. Never throws: every failure is an
    /// outcome with its class.
    public static func run(_ plan: Plan, on transceiver: any Transceiver) -> Outcome {
        let gated = plan.writeGate.map { GatedTransceiver(transceiver, gate: $0) }
        let run = TagCycleRunner(
            tag: Type2Tag(transceiver: gated ?? transceiver), plan: plan, rawPath: transceiver.supportsRawCommands)
        gated?.waited = { [unowned run] in run.gateWaited($0) }
        run.execute()
        var outcome = run.outcome()
        outcome.gateFailure = gated?.failure
        return outcome
    }
}

/// The mutable state of one cycle (its protection and mirror steps: `TagCycleRunner+Protection.swift`).
final class TagCycleRunner {
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
    var signature: SignatureStatus?
    var identityAnomalies: String?
    /// Whether the tag arrived password-protected (re-provisioning or a resumed tag).
    var wasProtected = false
    /// Microseconds spent waiting for the write gate, by the phase that was running.
    var gateWait: [Phase: Double] = [:]

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
                    if let chip = identity.chip {
                        if let protection = plan.protection { try unlockIfProtected(protection, chip: chip) }
                        try checkConfiguration(chip)
                        try tag.readHeader()
                    }
                    try checkIdentity()
                    if let check = plan.signature {
                        try checkSignature(check, uid: plan.uid.isEmpty ? try tag.readUID() : plan.uid)
                    }
                    return try tag.detectNDEF()
                }
                // No raw path (PC/SC style plain): GET_VERSION cannot be sent, so the chip is judged by
                // the data-area size its CC declares (CC2 of the factory CC, `type2-ntag.md` §5.1).
                let area = try tag.detectNDEF()
                chip = ChipModel.allCases.first { $0.factoryCC[2] != 0 && $0.factoryCC[2] == area.cc.bytes[2] }
                try checkChip(chip, how: " by its CC size (the reader cannot send GET_VERSION)")
                if let chip { tag.assume(chip) }
                try checkIdentity()
                if let check = plan.signature {
                    // READ_SIG cannot be sent either; `run` refuses `require` on such a reader before the first tag.
                    guard check.policy != .require else {
                        throw CycleFailure(
                            .signatureInvalid, phase: .identify,
                            "the reader cannot send READ_SIG, and the job requires it")
                    }
                    signature = .unavailable
                }
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
            let window = plan.mirror.map { [($0.page * 4 + $0.byte)..<($0.page * 4 + $0.byte + $0.kind.length)] } ?? []
            try timed(.verify) { try tag.verify(result, ignoring: window) }
            if let mirror = plan.mirror, let chip {
                try timed(.verify) {
                    if wasProtected, let protection = plan.protection { try authenticated(protection) }
                    try configureMirror(mirror, chip: chip)
                }
            }
            if plan.lock {
                try timed(.lock) { try tag.writeLock() }
                locked = true
            }
            if let protection = plan.protection, let chip {
                try timed(.lock) { try protect(protection, chip: chip) }
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

    /// The pre-write checks on the dynamic lock page and CFG0/CFG1 (`type2-ntag.md` §11), one READ of
    /// the lock page: without a protection key in the job, a tag whose AUTH0 lies within its user
    /// pages (or whose configuration pages refuse reads, PROT = 1) is refused before any WRITE, rather
    /// than half written and then NAKed. The lock page stays cached, so detection sees dynamic lock
    /// bits that cover the NDEF area (a read-only tag).
    func checkConfiguration(_ chip: ChipModel) throws {
        let configuration: Type2Configuration
        do {
            configuration = try tag.readConfiguration()
        } catch let error as TransportError where error == .nak(0x0) && plan.protection == nil {
            // A protected page is refused with NAK 0h (§3.6); other NAKs, silence and reader errors keep their class.
            throw CycleFailure(
                .readOnly, phase: .identify,
                "the configuration pages refuse READ (\(error)): the tag is password-protected and the job has no key")
        }
        guard plan.protection == nil, configuration.isPasswordProtected(on: chip) else { return }
        throw CycleFailure(
            .readOnly, phase: .identify,
            "the tag is password-protected from page \(configuration.auth0) (AUTH0) and the job has no key")
    }

    /// The identity cross-check of `type2-ntag.md` §11 on pages 0–2 as identify read them (FAST_READ
    /// `3A 00 04` / `3A 00 05`, or READ `30 00`; a generic tag's READ `30 00` here is the one NDEF
    /// detection reuses): the anticollision UID, BCC0, BCC1 and INT = `48`. Refused anomalies fail
    /// as `identityMismatch` before any WRITE under `refuse`, and are only kept under `record`.
    func checkIdentity() throws {
        let anticollision = plan.uid.count == 7 ? plan.uid : nil
        let found = IdentityCheck.refusable(
            try tag.identityAnomalies(anticollisionUID: anticollision), chip: chip, uid0: tag.cachedPage(0)?.first)
        guard !found.isEmpty else { return }
        switch plan.identityCheck {
        case .refuse: throw IdentityCheck.failure(found)
        case .record: identityAnomalies = found.map(\.description).joined(separator: "; ")
        }
    }

    /// READ_SIG `3Ch` and verification against the trusted keys (`type2-ntag.md` §3.8). Under
    /// `require` a tag that does not verify (or cannot answer) is quarantined before any write; under
    /// `record` the result is only kept. After silence the tag is re-activated (a NAK already re-activates it).
    func checkSignature(_ check: SignatureCheck, uid: [UInt8]) throws {
        do {
            let answer = try tag.readSignature()
            signature = check.verify(uid: uid, signature: answer) ? .valid : .invalid
        } catch let error as TransportError where error == .tagLost {
            throw error
        } catch {
            signature = .unreadable
            if check.policy == .require {
                throw CycleFailure(.signatureInvalid, phase: .identify, "READ_SIG failed: \(error)")
            }
            if let transport = error as? TransportError, transport == .noAnswer { try tag.reactivate() }
            return
        }
        if check.policy == .require, signature == .invalid {
            throw CycleFailure(
                .signatureInvalid, phase: .identify,
                "originality signature does not verify against any trusted key (counterfeit or unknown chip)")
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
        defer { micros[phase, default: 0] += (clock.now - start).microseconds }
        return try body()
    }

    /// The write gate held a command for `duration` during the current phase.
    func gateWaited(_ duration: Duration) {
        gateWait[phase, default: 0] += duration.microseconds
    }

    func outcome() -> TagCycle.Outcome {
        var phases = micros
        for (phase, waited) in gateWait { phases[phase] = max((phases[phase] ?? 0) - waited, 0) }
        return TagCycle.Outcome(
            failure: failure, chip: chip, wroteSomething: wroteSomething, alreadyWritten: alreadyWritten,
            locked: locked, phaseMicroseconds: phases, exchanges: tag.total.exchanges + tag.total.reactivations,
            airtimeMicroseconds: tag.total.airtimeMicroseconds, signature: signature,
            identityAnomalies: identityAnomalies, gateWaitMicroseconds: gateWait.values.reduce(0, +))
    }
}
