import NFCTags

/// Status and capacity: NFC Forum NDEF detection (Type 2: the CC and TLV walk), then the checks that
/// decide whether the message can be written at all.
///
/// Failure classes: `notNDEF`, `readOnly` (locked, or a read-only tag holding another message),
/// `capacity`, `identityMismatch` (a CC the chip cannot have), and the transport classes.
extension PipelineRun {
    func statusStep() throws {
        let tag = try family()
        let (status, capacity) = try timed(.identify) {
            do {
                return try tag.detectNDEF()
            } catch let error as TagError where error.code == .notNDEF && plan.formatsBlankTags {
                guard let formatter = tag.formatting, try formatter.isBlank() else { throw error }
                try formatter.formatBlank()
                return try tag.detectNDEF()
            }
        }
        self.capacity = capacity
        if status == .readOnly {
            // A keyed tag made read-only by an earlier attempt: the family's keyed plan knows.
            guard plan.personalisation == nil else { return }
            try resumeOnReadOnlyTag(tag)
            return
        }
        guard plan.message.count <= capacity else {
            throw CycleFailure(
                .capacity, phase: .identify,
                "message is \(plan.message.count) bytes, the tag holds at most \(capacity)")
        }
    }

    /// A read-only tag is a failure, unless it is a resumed tag that already holds this very message
    /// and the job locks: then the crash or tear came during or after the lock. The CC is written first,
    /// so the lock bits may still be clear: the lock step finishes them (steps already in effect are
    /// skipped) and reads them back before the row can be committed.
    private func resumeOnReadOnlyTag(_ tag: any FamilyTag) throws {
        let reason = tag.statusReason.map { " (\($0))" } ?? ""
        guard plan.lock else {
            throw CycleFailure(.readOnly, phase: .identify, "tag is read-only\(reason)")
        }
        let current = try timed(.verify) { try tag.readNDEF() }
        guard current == plan.message else {
            throw CycleFailure(.readOnly, phase: .identify, "tag is read-only and holds another message\(reason)")
        }
        alreadyWritten = true
        onlyLockRemains = true
    }
}
