/// Formatting a blank Type 5 tag (no CC) the way Android's `rw_i93_sm_format` does (`docs/reference/type5.md` §2.5).
extension Type5FamilyTag: NDEFFormattable {
    public var formatting: (any NDEFFormattable)? { self }

    /// Read Single Block `20` of block 0: blank unless it starts with the magic `E1` or `E2`.
    public func isBlank() throws -> Bool {
        let block0 = try tag.readSingleBlock(0)
        return !(block0.first == 0xE1 || block0.first == 0xE2)
    }

    /// The CC a blank chip gets: `E1 40 MLEN 01`, MLEN the whole data memory in 8-byte units with the CC
    /// counted (NXP/Android style, at most `FF`; `FF` with the overflow bit `04` above 2040 bytes), MBREAD set.
    public static func formatCC(memoryBytes: Int) -> Type5CapabilityContainer {
        memoryBytes / 8 <= 0xFF
            ? Type5CapabilityContainer(mlen: memoryBytes / 8, features: Type5CapabilityContainer.multipleBlockRead)
            : Type5CapabilityContainer(mlen: 0xFF, features: Type5CapabilityContainer.multipleBlockRead | 0x04)
    }

    /// Refuses a tag with a locked block (Get Multiple Block Security Status `2C` over the data blocks), then
    /// writes the CC and `03 00 FE 00` after it (Write Single Block `21`, block 0 then block 1).
    ///
    /// - Throws: `TagError.unknownChip` without the memory size (no system information) or beyond 256 blocks,
    ///   `.readOnly` for a locked block or a refused write; transport errors.
    public func formatBlank() throws {
        guard let blocks = dataBlockCount, let size = systemInformation?.blockSize, blocks <= 256, size >= 4 else {
            throw TagError(.unknownChip, "the tag's memory size is unknown or beyond 256 blocks: not formatted")
        }
        let status = try tag.getMultipleBlockSecurityStatus(first: 0, count: blocks)
        if let locked = status.firstIndex(where: { $0 & 0x01 != 0 }) {
            throw TagError(.readOnly, "block \(locked) is locked: a blank tag with locked blocks is not formatted")
        }
        let cc = Self.formatCC(memoryBytes: blocks * size)
        var bytes = cc.bytes + [0x03, 0x00, 0xFE, 0x00]
        bytes += [UInt8](repeating: 0, count: (size - bytes.count % size) % size)
        for block in 0..<bytes.count / size {
            do {
                try tag.writeSingleBlock(
                    block, Array(bytes[block * size..<(block + 1) * size]),
                    ignoringNotProgrammed: chipModel.ignoresNotProgrammed)
            } catch let error as ISO15693Error {
                throw TagError(.readOnly, "formatting refused: \(error)", page: block, cause: error)
            }
        }
        area = nil
    }
}
