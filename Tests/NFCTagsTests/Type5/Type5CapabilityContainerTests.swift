import NDEF
import NFCTags
import Testing

/// The T5T CC (`docs/reference/type5.md` §2.1): both layouts both ways, and capacity from the smaller MLEN reading.
@Suite struct Type5CapabilityContainerTests {
    static let layouts: [(String, Int, Int, UInt8)] = [
        ("E1 40 0E 01", 0x0E, 4, 0x01),
        ("E1 40 14 02", 0x14, 4, 0x02),
        ("E1 43 28 01", 0x28, 4, 0x01),
        ("E2 40 00 01 00 00 03 FF", 1023, 8, 0x01),
    ]

    @Test(arguments: layouts) func parsesAndEncodesBothWays(hex: String, mlen: Int, length: Int, features: UInt8) throws
    {
        let bytes = try #require(Hex.bytes(hex))
        let cc = try #require(Type5CapabilityContainer(bytes))
        #expect(cc.mlen == mlen && cc.length == length && cc.features == features)
        #expect(cc.bytes == bytes)
    }

    @Test func theSLIXFactoryCCHoldsRFALsOneHundredAndTwoBytes() throws {
        let cc = try #require(Type5CapabilityContainer([0xE1, 0x40, 0x0E, 0x01]))
        #expect(cc.areaBytes(memoryBytes: 112) == 104)
        #expect(Type5CapabilityContainer.messageCapacity(area: 104) == 102)
        #expect(cc.supportsMultipleBlockRead && !cc.needsSpecialFrame && cc.writeAccess == 0)
    }

    @Test func mlenCountedWithoutTheCCIsBoundedByTheNXPReading() throws {
        let cc = try #require(Type5CapabilityContainer(Hex.bytes("E2 40 00 01 00 00 03 FF") ?? []))
        #expect(cc.areaBytes(memoryBytes: 8192) == 8176)
        #expect(Type5CapabilityContainer.messageCapacity(area: 8176) == 8172)
        let slix2 = try #require(Type5CapabilityContainer([0xE1, 0x40, 0x28, 0x01]))
        #expect(slix2.areaBytes(memoryBytes: 316) == 312)
        #expect(Type5CapabilityContainer.messageCapacity(area: 312) == 308)
    }

    @Test func readOnlySetsTheWriteAccessBits() throws {
        let cc = try #require(Type5CapabilityContainer([0xE1, 0x40, 0x0E, 0x01]))
        #expect(cc.readOnly.bytes == [0xE1, 0x43, 0x0E, 0x01] && cc.readOnly.writeAccess == 3)
    }

    @Test func anotherMagicOrACutLongCCIsNoCC() {
        #expect(Type5CapabilityContainer([0xE3, 0x40, 0x0E, 0x01]) == nil)
        #expect(Type5CapabilityContainer([0xE1, 0x40, 0x00, 0x01, 0x00]) == nil)
    }
}
