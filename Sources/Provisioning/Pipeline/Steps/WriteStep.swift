import NFCTags

/// Write and read back: the family's tear-safe NDEF write (units that already match are skipped), then
/// a byte-for-byte compare of every written unit read back (a mirror window excepted; Type 2 re-activates
/// first, Type 4 reads back in the same ISO-DEP session).
///
/// Failure classes: `verifyMismatch`, `capacity` (the family refuses the layout), and the transport
/// classes (`tagLost`, `timeout`, `nak`) with the unit involved.
extension PipelineRun {
    func writeStep() throws {
        let tag = try family()
        let result = try timed(.write) { try tag.writeNDEF(plan.message) }
        written = result
        wroteSomething = !result.writtenPages.isEmpty
        alreadyWritten = result.writtenPages.isEmpty
        let window = plan.mirror.map { [$0.window] } ?? []
        try timed(.verify) { try tag.verify(result, ignoring: window) }
    }
}
