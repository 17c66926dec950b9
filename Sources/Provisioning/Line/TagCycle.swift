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
        let run = Runner(
            tag: Type2Tag(transceiver: gated ?? transceiver), plan: plan, rawPath: transceiver.supportsRawCommands)
        gated?.waited = { [unowned run] in run.gateWaited($0) }
        run.execute()
        var outcome = run.outcome()
        outcome.gateFailure = gated?.failure
        return outcome
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
                            .signatureInvalid, phase: .identify, "the reader cannot send READ_SIG, and the job requires it")
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

    /// Configures the ASCII mirror (`type2-ntag.md` §6): WRITE `A2` of CFG1 with NFC_CNT_EN when the
    /// counter shows, then CFG0 (MIRROR_CONF, MIRROR_BYTE, STRG_MOD_EN kept; MIRROR_PAGE); re-activates
    /// and checks with FAST_READ `3Ah` that the window reads as the UID (and a 6-digit counter).
    func configureMirror(_ mirror: MirrorPlan, chip: ChipModel) throws {
        guard chip.isNTAG, mirror.page >= 4, mirror.lastPage <= chip.lastUserPage else {
            throw CycleFailure(
                .capacity, phase: .verify, "the mirror window (pages \(mirror.page)…\(mirror.lastPage)) does not fit "
                    + "the user memory of \(chip.displayName)")
        }
        let current = try tag.readConfiguration()
        if mirror.kind.usesCounter, current.access & 0x10 == 0 {
            try tag.write(page: chip.cfg1Page, data: [current.access | 0x10, current.cfg1[1], 0x00, 0x00])
        }
        let mirrorByte = mirror.mirrorByte(keeping: current.cfg0[0])
        try tag.write(page: chip.cfg0Page, data: [mirrorByte, current.cfg0[1], UInt8(mirror.page), current.cfg0[3]])
        try tag.reactivate()
        let bytes = try tag.fastRead(from: mirror.page, through: mirror.lastPage)
        let shown = String(decoding: bytes[mirror.byte..<(mirror.byte + mirror.kind.length)], as: UTF8.self)
        guard mirror.kind.isMirrored(shown, uid: plan.uid) else {
            throw CycleFailure(
                .verifyMismatch, phase: .verify, page: mirror.page,
                "the mirror window reads '\(shown)', expected \(mirror.kind.rawValue) in ASCII")
        }
    }

    /// Sets per-tag password protection in the safe order of `type2-ntag.md` §3.9 — WRITE `A2` of PWD,
    /// PACK, CFG1 (ACCESS), then CFG0 (AUTH0) last; CFGLCK, if asked, is set by an authenticated CFG1
    /// WRITE after that — re-activates, checks PWD_AUTH `1Bh` returns the
    /// expected PACK, and checks that an unauthenticated WRITE to a protected page is refused. The
    /// CC's access bits are never touched, so phones still read the NDEF message.
    func protect(_ plan: ProtectionPlan, chip: ChipModel) throws {
        guard chip.isNTAG else {
            throw CycleFailure(.protectFailed, phase: .lock, "password protection needs an NTAG21x")
        }
        let auth0 = plan.auth0Page(on: chip)
        let probePage = min(auth0, chip.cfg0Page)
        let probe = Array(try tag.read(page: probePage).prefix(4))
        let current = try tag.readConfiguration()
        if current.isPasswordProtected(on: chip) || Int(current.auth0) <= chip.lastPage {
            // A retry or a resumed tag: the configuration pages already need the password.
            try authenticated(plan)
        }
        let access = (current.access & 0x10) | plan.accessBits
        try tag.write(page: chip.pwdPage, data: plan.password.pwd)
        try tag.write(page: chip.packPage, data: plan.password.pack + [0x00, 0x00])
        try tag.write(page: chip.cfg1Page, data: [access & ~0x40, current.cfg1[1], 0x00, 0x00])
        try tag.write(page: chip.cfg0Page, data: [current.cfg0[0], current.cfg0[1], current.cfg0[2], UInt8(auth0)])
        try tag.reactivate()
        try authenticated(plan)
        if access & 0x40 != 0 {
            // CFGLCK last, authenticated: a chip that applies it at once would refuse the CFG0 write.
            try tag.write(page: chip.cfg1Page, data: [access, current.cfg1[1], 0x00, 0x00])
        }
        try tag.reactivate()
        let written = probePage == chip.cfg0Page
            ? [current.cfg0[0], current.cfg0[1], current.cfg0[2], UInt8(auth0)] : probe
        do {
            try tag.write(page: probePage, data: written)
        } catch let error as TransportError where error != .tagLost {
            return  // refused without the password, as it must be (the NAK re-activated the tag)
        } catch let error as Type2Error where (error.cause as? TransportError).map({ $0 != .tagLost }) ?? false {
            return
        }
        throw CycleFailure(
            .protectFailed, phase: .lock, page: probePage,
            "an unauthenticated WRITE to protected page \(probePage) was accepted")
    }

    /// Re-provisioning: a tag that already needs the password (AUTH0 within its pages, or reads
    /// refused) is authenticated with its derived password before anything is written.
    func unlockIfProtected(_ plan: ProtectionPlan, chip: ChipModel) throws {
        guard chip.isNTAG else { return }
        do {
            let configuration = try tag.readConfiguration()
            wasProtected = Int(configuration.auth0) <= chip.lastPage
        } catch let error as TransportError where error != .tagLost {
            wasProtected = true  // PROT = 1: the configuration pages themselves are read-protected
        }
        if wasProtected { try authenticated(plan) }
    }

    /// PWD_AUTH with the tag's derived password, as a protection failure when refused.
    func authenticated(_ plan: ProtectionPlan) throws {
        do {
            try tag.authenticate(password: plan.password.pwd, expectedPACK: plan.password.pack)
        } catch let error as Type2Error where error.code == .authenticationFailed {
            throw CycleFailure(.protectFailed, phase: .lock, "PWD_AUTH with the derived password failed: \(error.message)")
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
