import NFCTags
import Testing

/// ISO/IEC 14443-3 Annex B vectors and the READ command of `docs/reference/type2.md` §1.
@Test(
    arguments: [
        ([0x00, 0x00], [0xA0, 0x1E]),
        ([0x12, 0x34], [0x26, 0xCF]),
        ([0x30, 0x00], [0x02, 0xA8]),
    ] as [([UInt8], [UInt8])])
func checksumMatchesTheStandardsVectors(_ bytes: [UInt8], _ crc: [UInt8]) {
    #expect(CRCA.checksum(bytes) == crc)
    #expect(CRCA.appending(to: bytes) == bytes + crc)
}

@Test func isValidAcceptsOnlyAFrameEndingInItsOwnCRC() {
    #expect(CRCA.isValid([0x30, 0x00, 0x02, 0xA8]))
    #expect(!CRCA.isValid([0x30, 0x00, 0xA8, 0x02]))
    #expect(!CRCA.isValid([0x30, 0x01, 0x02, 0xA8]))
    #expect(!CRCA.isValid([0x02, 0xA8]))
}
