import NFCTags

/// Configure: the UID/counter mirror the job's template places, through the chip's mirror capability,
/// with a read-back of the window (authenticated first when the tag arrived protected).
///
/// Failure classes: `capacity` (the window does not fit the chip, or the chip has no mirror),
/// `verifyMismatch` (the window does not read as the UID), `protectFailed`.
extension PipelineRun {
    func configureStep() throws {
        guard let mirror = plan.mirror, chip != nil else { return }
        let tag = try family()
        guard let capability = tag.mirror else {
            throw CycleFailure(
                .capacity, phase: .verify, "\(chip?.displayName ?? "this tag") has no UID/counter mirror")
        }
        try timed(.verify) {
            if wasProtected, let protection = plan.protection, let unlock = tag.passwordProtection {
                try unlock.authenticate(protection.settings)
            }
            try capability.configureMirror(mirror, uid: plan.uid)
        }
    }
}
