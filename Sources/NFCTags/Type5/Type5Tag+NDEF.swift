import NDEF

/// The NFC Forum T5T procedures over ISO 15693 blocks (`docs/reference/type5.md` §2.3–2.4): NDEF detection, reading
/// the message, the tear-safe write and the read-back compare.
extension Type5Tag {
    /// Reads blocks `first…last` (Read Multiple Blocks `23` in runs of at most 32 blocks inside one
    /// 32-block sector when `multiple` and the reader path sends raw commands, else Read Single Block `20`
    /// each) into `area.blocks`.
    func readBlocks(_ first: Int, _ last: Int, into area: inout Type5NDEFArea, multiple: Bool) throws {
        let multiple = multiple && transceiver.supportsRawCommands
        var block = first
        while block <= last {
            if area.blocks[block] != nil {
                block += 1
                continue
            }
            if multiple {
                let count = min(last - block + 1, 32 - block % 32)
                let data = try readMultipleBlocks(first: block, count: count, blockSize: area.blockSize)
                for index in 0..<count {
                    area.blocks[block + index] = Array(data[index * area.blockSize..<(index + 1) * area.blockSize])
                }
                block += count
            } else {
                let data = try readSingleBlock(block)
                guard data.count == area.blockSize else {
                    throw TransportError.invalidResponse(
                        "block \(block) has \(data.count) bytes, not \(area.blockSize)")
                }
                area.blocks[block] = data
                block += 1
            }
        }
    }

    /// The bytes at `offset..<offset + count`, reading the blocks not yet known.
    func bytes(_ offset: Int, _ count: Int, in area: inout Type5NDEFArea) throws -> [UInt8] {
        guard count > 0 else { return [] }
        let first = offset / area.blockSize
        let last = (offset + count - 1) / area.blockSize
        try readBlocks(first, last, into: &area, multiple: area.capabilityContainer.supportsMultipleBlockRead)
        let joined = (first...last).flatMap { area.blocks[$0] ?? [] }
        let start = offset - first * area.blockSize
        return Array(joined[start..<start + count])
    }

    /// NDEF detection (§2.3): Read Single Block `20` of block 0 (the block size is its length), block 1 for an
    /// 8-byte CC, then the TLVs from the CC's end until the NDEF TLV or `FE`. A CC with magic `E2` switches to
    /// 2-byte block numbers (`extendedAddressing`) for everything after block 0.
    ///
    /// - Parameter blockCount: the blocks that may hold CC and NDEF data (Get System Information, the chip).
    /// - Throws: `TagError.notNDEF` (no CC, no NDEF TLV), `.unsupportedCC` (version, read access);
    ///   `ISO15693Error` and transport errors.
    public func detectNDEF(blockCount: Int?) throws -> Type5NDEFArea {
        extendedAddressing = false
        let block0 = try readSingleBlock(0)
        guard block0.count >= 4 else { throw TransportError.invalidResponse("block 0 has \(block0.count) bytes") }
        var head = block0
        extendedAddressing = head[0] == 0xE2
        if head[2] == 0x00, head.count < 8, head[0] == 0xE1 || head[0] == 0xE2 { head += try readSingleBlock(1) }
        guard let cc = Type5CapabilityContainer(head) else {
            throw TagError(.notNDEF, "block 0 holds no T5T CC (magic \(Hex.byte(block0[0]))h, not E1h or E2h)")
        }
        guard cc.majorVersion <= 1, cc.readAccess == 0 else {
            throw TagError(.unsupportedCC, "CC version/access \(Hex.byte(cc.versionAccess))h is not readable")
        }
        var area = Type5NDEFArea(blockSize: block0.count, blockCount: blockCount, capabilityContainer: cc)
        area.blocks[0] = block0
        if cc.isLong, block0.count < 8 { area.blocks[1] = Array(head[block0.count...]) }
        optionFlagOnWrites = optionFlagOnWrites || cc.needsSpecialFrame
        var offset = cc.length
        while offset < area.areaEnd {
            let type = try bytes(offset, 1, in: &area)[0]
            if type == 0x00 {
                offset += 1
                continue
            }
            if type == 0xFE { break }
            var length = Int(try bytes(offset + 1, 1, in: &area)[0])
            var size = 1
            if length == 0xFF {
                let long = try bytes(offset + 2, 2, in: &area)
                length = Int(long[0]) << 8 | Int(long[1])
                size = 3
            }
            if type == 0x03 {
                guard offset + 1 + size + length <= area.areaEnd else {
                    throw TagError(.notNDEF, "the NDEF TLV's length \(length) runs past the T5T area")
                }
                (area.tlvOffset, area.messageLength, area.lengthFieldSize) = (offset, length, size)
                return area
            }
            offset += 1 + size + length
        }
        throw TagError(.notNDEF, "no NDEF TLV (03h) before the terminator or the T5T area's end")
    }

    /// The NDEF message bytes (`[]` for an empty TLV).
    public func readMessage(_ area: inout Type5NDEFArea) throws -> [UInt8] {
        try bytes(area.messageOffset, area.messageLength, in: &area)
    }

    /// The tear-safe write of §2.4: the TLV's first block with L = 0 (and the first body bytes), the other
    /// blocks (Write Single Block `21`, skipping blocks known to match), then the first block with the real L.
    ///
    /// A tear leaves the old message (the first write did not land), an empty TLV, or the new message.
    public func writeMessage(
        _ message: [UInt8], area: inout Type5NDEFArea, ignoringNotProgrammed: Bool = false
    ) throws -> NDEFWriteResult {
        let tlv = area.tlv(for: message)
        let layout = area.layout(tlv)
        var result = NDEFWriteResult(pages: [:], writtenPages: [], skippedPages: [])
        for (block, bytes) in layout { result.pages[block] = bytes }
        if layout.allSatisfy({ area.blocks[$0.block] == $0.bytes }) {
            result.skippedPages = layout.map(\.block)
            return result
        }
        func write(_ block: Int, _ bytes: [UInt8]) throws {
            try writeSingleBlock(block, bytes, ignoringNotProgrammed: ignoringNotProgrammed)
            area.blocks[block] = bytes
            result.writtenPages.append(block)
        }
        guard let (firstBlock, firstBytes) = layout.first else { return result }
        let lengthStart = area.capabilityContainer.length + 1 - firstBlock * area.blockSize
        var empty = firstBytes
        for index in lengthStart..<lengthStart + (message.count < 0xFF ? 1 : 3) { empty[index] = 0x00 }
        if message.count >= 0xFF { empty[lengthStart] = 0xFF }
        if area.blocks[firstBlock] != empty { try write(firstBlock, empty) }
        for (block, bytes) in layout.dropFirst() {
            if area.blocks[block] == bytes {
                result.skippedPages.append(block)
            } else {
                try write(block, bytes)
            }
        }
        if area.blocks[firstBlock] != firstBytes { try write(firstBlock, firstBytes) }
        (area.tlvOffset, area.messageLength) = (area.capabilityContainer.length, message.count)
        area.lengthFieldSize = message.count < 0xFF ? 1 : 3
        return result
    }

    /// Reads back every block `written` holds (Read Single/Multiple Blocks) and compares it byte for byte.
    ///
    /// - Throws: `TagError.verifyMismatch` naming the first block that differs; transport errors.
    public func verify(_ written: NDEFWriteResult, area: inout Type5NDEFArea) throws {
        let numbers = written.pages.keys.sorted()
        guard let first = numbers.first, let last = numbers.last else { return }
        for block in numbers { area.blocks[block] = nil }
        try readBlocks(first, last, into: &area, multiple: area.capabilityContainer.supportsMultipleBlockRead)
        for block in numbers where area.blocks[block] != written.pages[block] {
            let read = area.blocks[block].map { Hex.string($0) } ?? "nothing"
            throw TagError(
                .verifyMismatch, "block \(block) reads \(read), written \(Hex.string(written.pages[block] ?? []))",
                page: block)
        }
    }
}
