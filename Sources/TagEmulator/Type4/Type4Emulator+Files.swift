import NFCTags

/// Non-volatile memory of the emulated Type 4 tag: programming file bytes and the secure state, the generic
/// tag's CC write byte, and the `preLocked` fault (`docs/reference/type4.md` §1.3, §1.6, §1.8).
extension Type4Emulator {
    /// Programs `bytes` into file `index` at `offset` (bounds checked by the caller) and calls
    /// `onMemoryWritten`.
    ///
    /// A generic tag re-reads its CC's write byte after a CC write: once it is `FF`, the NDEF file and
    /// the CC itself refuse every further write (permanent, as the CC can no longer change).
    func program(_ bytes: ArraySlice<UInt8>, file index: Int, at offset: Int) {
        guard !bytes.isEmpty else { return }
        application.write(bytes, file: index, at: offset)
        if chip.ccWriteAccessOffset != nil { deriveGenericRights() }
        onMemoryWritten?()
    }

    /// Records one programming of the non-volatile secure state (keys, file settings, SDMReadCtr) for the
    /// timing model and reports it (`secureStateWritten()`), so `store=DIR` saves it.
    func persistNonVolatileState() {
        programmedFrames += 1
        secureStateWritten()
    }

    /// Calls `onSecureStateWritten`, or `onMemoryWritten` when it is `nil`.
    func secureStateWritten() {
        if let onSecureStateWritten { onSecureStateWritten() } else { onMemoryWritten?() }
    }

    /// Whether a generic tag's CC says the NDEF file is read-only (write byte `FF`).
    var genericWriteLocked: Bool {
        guard let offset = chip.ccWriteAccessOffset, let cc = application.index(ofIdentifier: 0xE103) else {
            return false
        }
        let bytes = application.files[cc].bytes
        return offset < bytes.count && bytes[offset] == 0xFF
    }

    /// A generic tag's rights from its CC: everything free (Change never) until the CC's NDEF write byte
    /// is `FF`, then reads only, for the NDEF file and the CC alike.
    func deriveGenericRights() {
        guard chip.ccWriteAccessOffset != nil else { return }
        let rights: UInt16 = genericWriteLocked ? 0xEFFF : 0xEEEF
        for index in application.files.indices {
            application.files[index].settings = Type4FileSettings(communicationMode: .plain, accessRights: rights)
        }
    }

    /// NTAG 424 DNA `preLocked`: file 02's Write and ReadWrite rights `F` (as ChangeFileSettings would set
    /// them, §1.6); Read and Change keep their delivery values.
    func lockNDEFFileSettings() {
        guard let index = application.index(ofNumber: 0x02) else { return }
        application.files[index].settings.write = .never
        application.files[index].settings.readWrite = .never
    }

    /// The CC's NDEF write-access byte (offset 14 of a mapping 2.0 CC, 16 of 3.0) set to `FF` in a fresh
    /// image, as the read-only transition of §1.6 leaves it.
    static func lockPermanently(_ application: inout Type4Application, chip: Type4EmulatedChip) {
        guard let cc = application.index(ofIdentifier: 0xE103) else { return }
        let offset = chip.ccWriteAccessOffset ?? 14
        application.write([0xFF], file: cc, at: offset)
    }
}
