/// Keyed NTAG 424 DNA personalisation, in place of write, lock and protect (docs/authentication.md): the fewest
/// APDUs AN12196's sequence allows, every key change journaled before it leaves.
///
/// ```
/// (resumed)  GetKeyVersion 90 64 + ≤ 2 × EV2First   settle each key change whose answer was lost, then
///            re-activation + SELECT 00 A4 04 00          leave the session that opened (the chip keeps it)
/// (resumed)  GetFileSettings 90 F5 02                were the settings (so the template) already made?
/// lock       AuthenticateEV2First 90 71/AF, K0       the key the tag holds (delivery or job)
/// write      WriteData 90 8D 02 (plain)              the template, tear-safe (NLEN 0 if set, body, NLEN)
/// lock       ChangeFileSettings 90 5F 02             SDM and the lock mode's rights (resets SDMReadCtr)
///            WriteData 90 8D 01 @0E FF               permanent: the CC's NDEF write byte, same session
///            ChangeKey 90 C4 × 5                     K1–K4, then K0 (ends the session), each journaled first
/// verify     SELECT 00 A4 + READ BINARY 00 B0        unauthenticated, as a phone: bytes and SUN checked
/// ```
///
/// The template goes in with WriteData inside the K0 session (AN12196 §6), so a tag whose K0 is not the expected
/// one is refused before anything is written; ISO UPDATE BINARY is not used there, because whether ISO commands
/// keep an EV2 session is not settled (`docs/reference/type4.md` open point 4). Without a row's SUN tokens
/// the read-back compares bytes only. The read counter must be exactly 1 when this attempt reset it; a tag whose
/// settings an earlier attempt made shows any counter from 1 up.
///
/// Failure classes: `wrongChip` (not an NTAG 424 DNA), `protectFailed` (neither journaled key, or a K0 that is
/// not the one the ledger names), `verifyMismatch` (the read-back), `lockFailed` (a refused settings or CC change),
/// and the transport classes.
extension NTAG424Personalisation {
    public func run(on family: any FamilyTag, message: [UInt8], uid: [UInt8], steps: any KeyedSteps) throws -> UInt32? {
        guard let tag = family.keyed as? NTAG424Tag else {
            throw KeyedFailure(
                .wrongChip, phase: .identify,
                "keyed personalisation needs an NTAG 424 DNA, this is \(family.chip?.displayName ?? "another chip")")
        }
        var changed = done
        if !open.isEmpty {
            steps.keysMayChange()
            let settled = try steps.timed(.lock) {
                try keyed { try rollout(changed: changed).resolve(open, on: tag, journal: journal) }
            }
            changed.formUnion(settled)
            // The chip keeps the session a settling authentication opened (and SDM stays off in it): start again.
            try steps.timed(.lock) {
                try family.reactivate()
                try tag.tag.selectNDEFApplication()
            }
        }
        var counter: UInt32? = 1
        if changed.contains(0) {
            // K0 is changed last: a tag holding the job's K0 has everything but the read-back.
            counter = nil
            steps.foundWritten()
        } else {
            try personalise(tag, message: message, uid: uid, changed: changed, counter: &counter, steps: steps)
        }
        return try steps.timed(.verify) {
            let file = try tag.tag.rereadNDEFFile(count: 2 + message.count)
            do {
                return try readBack.check(file, message: message, uid: uid, counter: counter).counter
            } catch let error as SUNReadBackError {
                throw KeyedFailure(.verifyMismatch, phase: .verify, "unauthenticated read-back: \(error)")
            }
        }
    }

    /// The K0 session: the template and settings unless an earlier attempt made them, the CC byte, the keys.
    private func personalise(
        _ tag: NTAG424Tag, message: [UInt8], uid: [UInt8], changed: Set<Int>, counter: inout UInt32?,
        steps: any KeyedSteps
    ) throws {
        let rollout = rollout(changed: changed)
        let settingsMade =
            try resumed && steps.timed(.identify) { holdsSettings(try tag.getFileSettings(Self.ndefFile)) }
        if settingsMade {
            counter = nil
            steps.foundWritten()
        }
        try steps.timed(.lock) { try keyed { try rollout.authenticate(tag, keyNumber: 0, new: false) } }
        if !settingsMade {
            steps.wrote()
            try steps.timed(.write) { try writeTemplate(message, on: tag) }
        }
        try steps.timed(.lock) {
            if !settingsMade {
                try refusedAsLockFailure { try tag.changeFileSettings(Self.ndefFile, settings: settings.encoded) }
            }
            if permanent, let container = tag.tag.capabilityContainer, container.writeAccess != .denied {
                try refusedAsLockFailure {
                    try tag.writeData(Self.ccFile, offset: container.writeAccessOffset, [0xFF], mode: .plain)
                }
            }
            steps.keysMayChange()
            try keyed {
                try rollout.run(on: tag, uid: uid, oldVersion: Self.deliveryVersion, journal: journal, done: changed)
            }
        }
    }

    /// Runs a keyed `body`: a refused authentication (`91 AE`) or a key the journal cannot name is
    /// `protectFailed`; the journal's own errors pass through (the pipeline stops the line on them).
    private func keyed<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as NTAG424Error where error.kind == .authentication {
            throw KeyedFailure(.protectFailed, phase: .lock, "the tag refused the K0 the ledger names for it: \(error)")
        } catch let error as KeyRolloutError {
            throw KeyedFailure(.protectFailed, phase: .lock, "\(error)")
        }
    }

    /// Runs `body`, making the chip's refusal (a `91 xx` other than an authentication error) `lockFailed`.
    private func refusedAsLockFailure(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as NTAG424Error where error.kind != .authentication && error.kind != .responseMAC {
            throw KeyedFailure(.lockFailed, phase: .lock, "the NTAG 424 DNA refused: \(error)")
        }
    }
}
