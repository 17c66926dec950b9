import NFCTags

extension Type4Emulator: ISODEPActivatable {
    /// WUPA, anticollision and SELECT at both cascade levels without RATS (`docs/reference/type4.md` §1.1, §6.1):
    /// the tag is selected at layer 3 (SAK `20`) and waits for the reader's own RATS `E0 xx`, as behind a
    /// PN532 whose fAutomaticRATS is off. Wakes a halted tag and clears the volatile state.
    ///
    /// - Returns: UID, ATQA and SAK `20` without an ATS; `nil` only when the tag has left the field.
    public func activateWithoutRATS() -> DetectedTag? {
        guard isPresent else { return nil }
        resetVolatileState()
        state = .active
        airtimeMicroseconds += timing.rf.activation
        return DetectedTag(uid: uid, atqa: chip.atqa, sak: 0x20)
    }
}
