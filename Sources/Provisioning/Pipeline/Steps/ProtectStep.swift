import NFCTags

/// Protect: the per-tag password through the family's protection capability, set in the chip's safe
/// order and checked both ways (the password works; an unauthenticated write is refused).
///
/// Failure classes: `protectFailed` (no capability, refused password, an accepted unauthenticated
/// write), and the transport classes.
extension PipelineRun {
    func protectStep() throws {
        guard let protection = plan.protection, chip != nil else { return }
        let tag = try family()
        guard let capability = tag.passwordProtection else {
            throw CycleFailure(.protectFailed, phase: .lock, "\(chip?.displayName ?? "this tag") has no password")
        }
        try timed(.lock) { try capability.protect(protection.settings) }
    }
}
