import NFCTags
import Testing

/// CC field decoding (`docs/reference/type2.md` §5.1).
@Suite struct CapabilityContainerTests {
    @Test func factoryNTAG215CC() throws {
        let cc = try #require(CapabilityContainer([0xE1, 0x10, 0x3E, 0x00]))
        #expect(cc.hasNDEFMagic && cc.majorVersion == 1 && cc.minorVersion == 0)
        #expect(cc.dataAreaBytes == 496 && cc.dataAreaEnd == 512)
        #expect(cc.isReadable && cc.isWritable && cc.isPhoneCompatible)
    }

    @Test(arguments: [
        (UInt8(0x00), true, true, true), (0x0F, true, false, true), (0x08, true, false, false),
        (0x80, false, false, false), (0x88, false, false, false), (0xF0, false, false, false),
        (0xFF, false, false, false),
    ])
    func accessNibbles(cc3: UInt8, readable: Bool, writable: Bool, phones: Bool) throws {
        let cc = try #require(CapabilityContainer([0xE1, 0x10, 0x12, cc3]))
        #expect(cc.isReadable == readable)
        #expect(cc.isWritable == writable)
        #expect(cc.isPhoneCompatible == phones)
    }

    @Test func wrongSizeIsRejected() {
        #expect(CapabilityContainer([0xE1, 0x10, 0x12]) == nil)
    }
}
