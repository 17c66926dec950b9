import NDEF

/// Formatting a FeliCa Lite-S without the NDEF system (`docs/reference/type3.md` §1.5, nfcpy `FelicaLite._format`): the
/// optional `NDEFFormattable` capability a job's `"format": true` uses, on a Lite-S only.
extension Type3FamilyTag: NDEFFormattable {
    public var formatting: (any NDEFFormattable)? { isLiteS ? self : nil }

    /// A Lite-S is blank when MC SYS_OP bit 0 is clear (it does not answer Polling `12FC`): Polling `88B4`, then
    /// Read `06` of MC `88`, which `formatBlank()` uses without reading it again.
    public func isBlank() throws -> Bool {
        try tag.poll(systemCode: FeliCaLiteS.systemCode)
        let mc = FeliCaMemoryConfiguration(try tag.read(blocks: [FeliCaLiteS.mc]))
        blankMemoryConfiguration = mc
        return !mc.ndefEnabled
    }

    /// `format()` with the MC `isBlank()` read.
    public func formatBlank() throws { try format() }

    /// Makes an empty NDEF tag of a Lite-S: Polling `88B4`, Read `06` of MC `88` (unless `isBlank()` just read
    /// it; S_PAD0 must be writable);
    /// when SYS_OP bit 0 is clear and MC_ALL is `FF`, Write `08` of MC with SYS_OP bit 0 set; then Write `08` of
    /// the attribute block `10 04 01 00 NmaxB 00… 01 00 00 00 sum`, NmaxB the writable S_PAD blocks from block 1
    /// in a row (at most 13). Detection then finds the NDEF system (Polling `12FC`).
    ///
    /// - Throws: `TagError.unsupportedCommand` on other chips; `.readOnly` when S_PAD0 is not writable or MC_ALL
    ///   is `00` with NDEF off (the card can no longer be changed to NDEF); transport errors.
    public func format() throws {
        if felicaChip == nil { try identify() }
        guard isLiteS else {
            throw TagError(.unsupportedCommand, "provision formats only a FeliCa Lite-S (MC SYS_OP)")
        }
        var mc: FeliCaMemoryConfiguration
        if let read = blankMemoryConfiguration {
            mc = read
        } else {
            try tag.poll(systemCode: FeliCaLiteS.systemCode)
            mc = FeliCaMemoryConfiguration(try tag.read(blocks: [FeliCaLiteS.mc]))
        }
        blankMemoryConfiguration = nil
        guard mc.allowsWrite(userBlock: 0) else { throw TagError(.readOnly, "MC makes S_PAD0 read-only") }
        if !mc.ndefEnabled {
            guard mc.systemBlocksWritable else {
                throw TagError(.readOnly, "MC_ALL is 00 and SYS_OP 00: the card can no longer be changed to NDEF")
            }
            mc.bytes[3] |= 0x01
            try tag.write(blocks: [FeliCaLiteS.mc], data: mc.bytes)
        }
        memoryConfiguration = mc
        let blocks = (1...13).prefix { mc.allowsWrite(userBlock: $0) }.count
        let attributes = Type3AttributeBlock(blocksPerRead: 4, blocksPerWrite: 1, maximumBlocks: blocks)
        var written: [Int] = []
        try writeBlocks([0], attributes.bytes, into: &written)
        self.attributes = attributes
    }
}
