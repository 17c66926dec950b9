import NDEF
import NFCTags
import Testing

/// The T3T attribute block and the Lite-S MC block against `docs/reference/type3.md` §1.4–§1.5.
@Suite struct Type3AttributeBlockTests {
    @Test func theFormattedLiteSBlockBothWays() throws {
        let bytes = Hex.bytes("10 04 01 00 0D 00 00 00 00 00 01 00 00 00 00 23")!
        #expect(Type3AttributeBlock.liteSFormatted.bytes == bytes)
        let block = try Type3AttributeBlock(bytes)
        #expect(block == .liteSFormatted && block.capacity == 208 && block.isWritable && !block.isWriting)
    }

    @Test func lengthAndChecksumOfNfcpysExample() throws {
        let block = try Type3AttributeBlock(Hex.bytes("10 04 01 00 03 00 00 00 00 00 01 00 00 00 00 19")!)
        #expect(block.maximumBlocks == 3)
        var written = block
        (written.writeFlag, written.length) = (0x0F, 0x01_0203)
        #expect(written.bytes == Hex.bytes("10 04 01 00 03 00 00 00 00 0F 01 01 02 03 00 2E"))
    }

    @Test func aWrongChecksumOrVersionIsNotNDEF() {
        #expect(throws: TagError.self) {
            try Type3AttributeBlock(Hex.bytes("10 04 01 00 0D 00 00 00 00 00 01 00 00 00 00 24")!)
        }
        #expect(throws: TagError.self) {
            try Type3AttributeBlock(Hex.bytes("20 04 01 00 0D 00 00 00 00 00 01 00 00 00 00 33")!)
        }
    }

    @Test func theMCLockIsNfcpysProtectWithoutAPassword() {
        let locked = FeliCaMemoryConfiguration.formatted.locked
        #expect(locked.bytes == Hex.bytes("FF FF 00 01 07 01 00 00 FF 3F FF 3F 00 00 00 00"))
        #expect(locked.isPermanentlyReadOnly && !FeliCaMemoryConfiguration.formatted.isPermanentlyReadOnly)
        #expect(
            FeliCaMemoryConfiguration.formatted.ndefEnabled
                && FeliCaMemoryConfiguration.formatted.allowsWrite(userBlock: 13))
    }
}
