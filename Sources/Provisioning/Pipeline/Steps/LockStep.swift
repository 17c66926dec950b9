import NFCTags

/// Lock: the family's chip-correct permanent lock, confirmed by reading it back (Type 2: CC, static
/// and dynamic lock bytes, then re-activation and READ of the lock pages).
///
/// Failure classes: `lockFailed` (the lock did not read back as set), `wrongChip` (the chip's lock
/// area is unknown), and the transport classes.
extension PipelineRun {
    func lockStep() throws {
        let tag = try family()
        try timed(.lock) { try tag.writeLock() }
        locked = true
        lockReadBack = tag.lockReadBack().map { TagPipeline.LockedUnit(unit: $0.unit, bytes: $0.bytes) }
    }
}
