import NDEF

/// The T3T tear-safe update, its read-back and the lock (`docs/reference/type3.md` §1.4, §1.5).
extension Type3FamilyTag {
    /// The tear-safe write of §1.4 (Write Without Encryption `08`): the attribute block with WriteF `0F`,
    /// the data blocks 1…⌈len/16⌉ zero-padded, Nbw per command, then the attribute block with WriteF `00` and
    /// Ln last. Blocks known to hold their new content already are skipped; nothing is sent when the tag holds
    /// the message.
    ///
    /// - Throws: `TagError.capacity` beyond NmaxB × 16 (nothing sent), `.readOnly` for RWFlag `00` or a
    ///   refused write; transport errors.
    public func writeNDEF(_ message: [UInt8]) throws -> NDEFWriteResult {
        let current = try attributes ?? readAttributes()
        guard message.count <= current.capacity else {
            throw TagError(
                .capacity,
                "the message has \(message.count) bytes; NmaxB \(current.maximumBlocks) "
                    + "blocks hold \(current.capacity)")
        }
        guard current.isWritable else { throw TagError(.readOnly, "the attribute block's RWFlag is 00") }
        var final = current
        (final.writeFlag, final.length) = (0, message.count)
        var pages: [Int: [UInt8]] = [0: final.bytes]
        let padded = message + [UInt8](repeating: 0, count: (16 - message.count % 16) % 16)
        for (i, block) in padded.chunked(16).enumerated() { pages[i + 1] = block }
        let data = pages.keys.sorted().filter { $0 > 0 && known[$0] != pages[$0] }
        var written: [Int] = []
        if !data.isEmpty || known[0] != final.bytes {
            var writing = current
            writing.writeFlag = Type3AttributeBlock.writing
            if known[0] != writing.bytes { try writeBlocks([0], writing.bytes, into: &written) }
            for piece in data.chunked(max(current.blocksPerWrite, 1)) {
                try writeBlocks(piece, piece.flatMap { pages[$0]! }, into: &written)
            }
            try writeBlocks([0], final.bytes, into: &written)
        }
        attributes = final
        let skipped = pages.keys.sorted().filter { !written.contains($0) }
        return NDEFWriteResult(pages: pages, writtenPages: written, skippedPages: skipped)
    }

    /// Write `08` of `blocks`; a refused write becomes `TagError.readOnly`.
    func writeBlocks(_ blocks: [Int], _ data: [UInt8], into written: inout [Int]) throws {
        known[0] = nil
        for block in blocks { known[block] = nil }
        do {
            try tag.write(blocks: blocks, data: data)
        } catch let error as FeliCaStatusError {
            throw TagError(.readOnly, "Write Without Encryption of block \(blocks[0]) refused: \(error)")
        }
        for (i, block) in blocks.enumerated() { known[block] = Array(data[16 * i..<16 * i + 16]) }
        written += blocks
    }

    /// Read `06` of every block of `written` (attribute block first, Nbr per command), compared with what
    /// was meant; `mask` ranges are message byte offsets (block 1 holds bytes 0–15). When a lock follows, the
    /// attribute block is left to `writeLock()`, which writes it whole again and compares it read back.
    ///
    /// - Throws: `TagError.verifyMismatch` naming the first block that differs.
    public func verify(_ written: NDEFWriteResult, ignoring mask: [Range<Int>]) throws {
        let blocks = written.pages.keys.sorted().filter { $0 > 0 || !lockFollows }
        let data = try readBlocks(blocks, per: attributes?.blocksPerRead ?? 1)
        for (i, block) in blocks.enumerated() {
            let read = Array(data[16 * i..<16 * i + 16])
            let meant = written.pages[block]!
            for j in 0..<16 where read[j] != meant[j] {
                let offset = (block - 1) * 16 + j
                if block > 0, mask.contains(where: { $0.contains(offset) }) { continue }
                throw TagError(
                    .verifyMismatch, "block \(block) reads \(Hex.string(read)), written \(Hex.string(meant))")
            }
        }
    }

    /// The lock of a Lite-S (§1.5): Write `08` of the attribute block with RWFlag `00`, then of MC `88` with
    /// the user blocks and MC_ALL read-only (as nfcpy `FelicaLiteS._protect` without a password), then Read
    /// `06` of MC and the attribute block to confirm, the attribute block byte for byte. Irreversible once MC_ALL
    /// is `00`; never probed by a write.
    ///
    /// - Throws: `TagError.lockUnsupported` on other chips; `.lockFailed` when the read-back is not locked or
    ///   the attribute block is not the one written.
    public func writeLock() throws {
        guard isLiteS else { throw TagError(.lockUnsupported, "only a FeliCa Lite-S is locked (MC block)") }
        var block = try attributes ?? readAttributes()
        var written: [Int] = []
        if block.isWritable {
            block.rwFlag = 0
            try writeBlocks([0], block.bytes, into: &written)
            attributes = block
        }
        let mc = try memoryConfiguration ?? FeliCaMemoryConfiguration(try tag.read(blocks: [FeliCaLiteS.mc]))
        if !mc.isPermanentlyReadOnly {
            guard mc.systemBlocksWritable else {
                throw TagError(.lockFailed, "MC_ALL is 00 but S_PAD blocks stay writable: MC can no longer change")
            }
            do {
                try tag.write(blocks: [FeliCaLiteS.mc], data: mc.locked.bytes)
            } catch let error as FeliCaStatusError {
                throw TagError(.lockFailed, "Write Without Encryption of MC refused: \(error)")
            }
        }
        let data = try tag.read(blocks: [FeliCaLiteS.mc, 0])
        let readMC = FeliCaMemoryConfiguration(Array(data[0..<16]))
        let readBlock = try Type3AttributeBlock(Array(data[16..<32]))
        memoryConfiguration = readMC
        attributes = readBlock
        lockReadBackUnits = [(FeliCaLiteS.mc, readMC.bytes), (0, readBlock.bytes)]
        guard readMC.isPermanentlyReadOnly, !readBlock.isWritable else {
            throw TagError(
                .lockFailed, "read back: MC \(Hex.string(readMC.bytes)), RWFlag \(Hex.byte(readBlock.rwFlag))")
        }
        guard readBlock.bytes == block.bytes else {
            throw TagError(
                .lockFailed,
                "attribute block reads \(Hex.string(readBlock.bytes)), written \(Hex.string(block.bytes))")
        }
    }

    /// MC and the attribute block as read after `writeLock()`.
    public func lockReadBack() -> [(unit: Int, bytes: [UInt8])] { lockReadBackUnits }

    /// Locked when RWFlag is `00` and, on a Lite-S, MC makes S_PAD0–13 and the system blocks read-only.
    public func lockState() -> LockState? {
        guard let attributes else { return nil }
        var reasons: [String] = []
        if attributes.isWritable { reasons.append("RWFlag is 01") }
        var fields = "RWFlag \(Hex.byte(attributes.rwFlag))"
        if let mc = memoryConfiguration {
            fields += ", MC \(Hex.string(mc.bytes))"
            if !mc.isPermanentlyReadOnly { reasons.append("MC leaves blocks writable") }
        } else {
            reasons.append("no MC block (not a Lite-S)")
        }
        return LockState(isPermanent: reasons.isEmpty, fields: fields, openReasons: reasons)
    }
}
