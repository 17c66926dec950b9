import NFCTags

/// Identify: the family from the activation data, the chip (Type 2: GET_VERSION `60`), the chip the
/// job accepts, unlocking a protected tag, the chip model's pre-write checks, the identity cross-check
/// and the originality signature — all before anything is written.
///
/// Failure classes: `wrongChip` (no family, or a chip the job does not take), `readOnly` (protected and
/// no key), `lockFailed` (the job locks and the chip has no lock this tool can make: `lockUnsupported`),
/// `protectFailed` (the key does not unlock it), `identityMismatch`, `signatureInvalid`, and the transport
/// classes.
extension PipelineRun {
    func identifyStep() throws {
        try timed(.identify) {
            let tag = try family()
            chip = try tag.identify()
            try checkChip(note: tag.identificationNote)
            if plan.mode == .lockOnly {
                try checkIdentity(tag)
                return
            }
            if let protection = plan.protection, let capability = tag.passwordProtection {
                wasProtected = try capability.unlockIfProtected(protection.settings)
            }
            try tag.prepareWrite(hasCredentials: plan.protection != nil, lock: plan.lock)
            try checkIdentity(tag)
            if let check = plan.signature { try checkSignature(check, on: tag) }
        }
    }

    /// Refuses a chip the job does not accept (any chip, and generic tags, when the job names none).
    private func checkChip(note: String) throws {
        guard !plan.acceptedChips.isEmpty else { return }
        guard let chip, plan.acceptedChips.contains(chip) else {
            let name = TagFamilies.standard.named(tag?.family).map(\.displayName) ?? tag?.family ?? ""
            let family = "a generic \(name) tag"
            throw CycleFailure(
                .wrongChip, phase: .identify,
                "tag is \(chip?.displayName ?? family)\(note), the job expects "
                    + plan.acceptedChips.map(\.displayName).sorted().joined(separator: " or "))
        }
    }

    /// The identity cross-check (`docs/reference/type2.md` §11): refused anomalies fail as `identityMismatch`
    /// before any write under `refuse`, and are only kept under `record`.
    private func checkIdentity(_ tag: any FamilyTag) throws {
        let found = try tag.identityAnomalies(anticollisionUID: plan.uid)
        guard !found.descriptions.isEmpty else { return }
        switch plan.identityCheck {
        case .refuse: throw IdentityCheck.failure(found)
        case .record: identityAnomalies = found.descriptions.joined(separator: "; ")
        }
    }

    /// The originality signature and its verification against the trusted keys (`docs/reference/type2.md` §3.8,
    /// `docs/reference/type4.md` §2.9). Under `require` a tag that does not verify (or cannot answer) is quarantined
    /// before any write; under `record` the result is only kept. After silence the tag is re-activated.
    private func checkSignature(_ check: SignatureCheck, on tag: any FamilyTag) throws {
        guard let originality = tag.originality, originality.canReadSignature else {
            // `run` refuses `require` on such a reader before the first tag; the manifest refuses it for a
            // family none of whose chips has a signature.
            guard check.policy != .require else {
                let why =
                    tag.originality == nil
                    ? "\(chip?.displayName ?? "the tag") has no originality signature provision can read"
                    : "the reader cannot send READ_SIG"
                throw CycleFailure(.signatureInvalid, phase: .identify, "\(why), and the job requires it")
            }
            signature = .unavailable
            return
        }
        let command = originality.signatureCommand
        let uid = plan.uid.isEmpty ? try originality.signedUID() : plan.uid
        do {
            let answer = try originality.readSignature()
            signature = check.verify(uid: uid, signature: answer) ? .valid : .invalid
        } catch let error as TransportError where error == .tagLost {
            throw error
        } catch {
            signature = .unreadable
            if check.policy == .require {
                throw CycleFailure(.signatureInvalid, phase: .identify, "\(command) failed: \(error)")
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
}
