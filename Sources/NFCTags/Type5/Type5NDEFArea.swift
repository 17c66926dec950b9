/// What NDEF detection found on a Type 5 tag: the block geometry, the CC, the NDEF TLV and the blocks read
/// so far (`docs/reference/type5.md` §2.2, §2.3).
public struct Type5NDEFArea: Sendable, Hashable {
    /// Bytes per block.
    public var blockSize: Int
    /// Blocks that may hold the CC and NDEF data (the chip's limit, or Get System Information's count).
    public var blockCount: Int?
    /// The capability container.
    public var capabilityContainer: Type5CapabilityContainer
    /// Byte offset of the NDEF TLV's T (`nil`: none found before the terminator or the area's end).
    public var tlvOffset: Int?
    /// The NDEF message length L (0 for an empty TLV).
    public var messageLength = 0
    /// Length of the L field (1, or 3 for `FF hi lo`).
    public var lengthFieldSize = 1
    /// Blocks read or written, by number (the write skips blocks that already match).
    public var blocks: [Int: [UInt8]] = [:]
    /// Block security status (`01`: locked) of blocks 0 … the NDEF TLV's end, when detection read it.
    public var securityStatus: [UInt8] = []

    /// Creates an area.
    public init(blockSize: Int, blockCount: Int?, capabilityContainer: Type5CapabilityContainer) {
        self.blockSize = blockSize
        self.blockCount = blockCount
        self.capabilityContainer = capabilityContainer
    }

    /// The memory the CC and the NDEF TLV may use, bytes (`nil` when the block count is unknown).
    public var memoryBytes: Int? { blockCount.map { $0 * blockSize } }
    /// The T5T area after the CC, bytes (the smaller MLEN reading, `Type5CapabilityContainer.areaBytes`).
    public var areaBytes: Int { capabilityContainer.areaBytes(memoryBytes: memoryBytes) }
    /// The end of the T5T area, a byte offset.
    public var areaEnd: Int { capabilityContainer.length + areaBytes }
    /// The largest NDEF message with the TLV right after the CC.
    public var capacity: Int { Type5CapabilityContainer.messageCapacity(area: areaBytes) }
    /// Byte offset of the message (after T and L).
    public var messageOffset: Int { (tlvOffset ?? capabilityContainer.length) + 1 + lengthFieldSize }

    /// The TLV bytes `03 L… message [FE]` for `message`, the terminator only when the area has room for it.
    public func tlv(for message: [UInt8]) -> [UInt8] {
        let length: [UInt8] =
            message.count < 0xFF
            ? [UInt8(message.count)] : [0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)]
        let start = capabilityContainer.length
        let body = [0x03] + length + message
        return start + body.count < areaEnd ? body + [0xFE] : body
    }

    /// The blocks `tlv` covers when written at the CC's end, padded with `00` (block number → content).
    public func layout(_ tlv: [UInt8]) -> [(block: Int, bytes: [UInt8])] {
        let start = capabilityContainer.length
        let first = start / blockSize
        let last = (start + tlv.count - 1) / blockSize
        return (first...last).map { block in
            let bytes = (0..<blockSize).map { index -> UInt8 in
                let offset = block * blockSize + index - start
                return tlv.indices.contains(offset) ? tlv[offset] : 0x00
            }
            return (block, bytes)
        }
    }

    /// The last block holding the NDEF TLV (or the CC, when there is no TLV).
    public var lastTLVBlock: Int {
        guard let tlvOffset else { return (capabilityContainer.length - 1) / blockSize }
        let end = messageOffset + messageLength
        return min(max(tlvOffset, end), areaEnd - 1) / blockSize
    }
}
