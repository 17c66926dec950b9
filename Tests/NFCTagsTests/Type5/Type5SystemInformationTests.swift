import NDEF
import NFCTags
import Testing

/// Get System Information answers (`docs/reference/type5.md` §1.3, §3.4: the ICODE SLI answer `0F … 00 00 1B 03 01`).
@Suite struct Type5SystemInformationTests {
    static let uid: [UInt8] = [0xE0, 0x04, 0x01, 0x50, 0x12, 0x34, 0x56, 0x78]

    @Test func theSLIAnswerBothWays() throws {
        let bytes = try #require(Hex.bytes("0F 78 56 34 12 50 01 04 E0 00 00 1B 03 01"))
        let information = try #require(Type5SystemInformation(bytes, extended: false))
        #expect(information.uid == Self.uid && information.dsfid == 0 && information.afi == 0)
        #expect(information.blockCount == 28 && information.blockSize == 4 && information.icReference == 0x01)
        #expect(information.memoryBytes == 112)
        #expect(information.encoded(extended: false) == bytes)
    }

    @Test func theExtendedFormHasATwoByteBlockCountLSBFirst() throws {
        let bytes = try #require(Hex.bytes("04 78 56 34 12 50 01 04 E0 FF 07 03"))
        let information = try #require(Type5SystemInformation(bytes, extended: true))
        #expect(information.blockCount == 2048 && information.blockSize == 4 && information.dsfid == nil)
        #expect(information.encoded(extended: true) == bytes)
    }

    @Test func anAnswerShorterThanItsFlagsIsRejected() throws {
        let bytes = try #require(Hex.bytes("0F 78 56 34 12 50 01 04 E0 00 00 1B 03 01"))
        for cut in 0..<bytes.count { #expect(Type5SystemInformation(Array(bytes.prefix(cut)), extended: false) == nil) }
    }
}
