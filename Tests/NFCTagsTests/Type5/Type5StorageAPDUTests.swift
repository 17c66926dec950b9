import NDEF
import NFCTags
import Testing

/// `FF B0` / `FF D6` by ISO 15693 block in both block-number conventions (`docs/reference/type5.md` §3.3), both ways.
@Suite struct Type5StorageAPDUTests {
    static let vectors: [(String, Type5StorageAPDU, Type5StorageAPDU.BlockNumber)] = [
        ("FF B0 00 05 00", .read(block: 5), .inP2),
        ("FF B0 05 00 00", .read(block: 5), .inP1),
        ("FF D6 00 01 04 03 10 D1 01", .update(block: 1, data: [0x03, 0x10, 0xD1, 0x01]), .inP2),
        ("FF D6 01 00 04 03 10 D1 01", .update(block: 1, data: [0x03, 0x10, 0xD1, 0x01]), .inP1),
        ("FF B0 00 FF 00", .read(block: 255), .inP2),
    ]

    @Test(arguments: vectors) func encodesAndParsesBothWays(
        hex: String, apdu: Type5StorageAPDU, convention: Type5StorageAPDU.BlockNumber
    ) throws {
        let bytes = try #require(Hex.bytes(hex))
        #expect(apdu.bytes(convention) == bytes)
        #expect(Type5StorageAPDU(bytes, convention) == apdu)
    }

    @Test func theOtherConventionAndMalformedAPDUsDoNotParse() throws {
        #expect(Type5StorageAPDU(try #require(Hex.bytes("FF B0 00 05 00")), .inP1) == nil, "P2 must be 00 in P1 form")
        #expect(Type5StorageAPDU(try #require(Hex.bytes("FF B0 05 00 00")), .inP2) == nil, "P1 must be 00 in P2 form")
        #expect(Type5StorageAPDU(try #require(Hex.bytes("FF D6 00 01 05 03 10 D1 01")), .inP2) == nil, "Lc ≠ data")
        #expect(Type5StorageAPDU(try #require(Hex.bytes("FF CA 00 00 00")), .inP2) == nil)
        #expect(Type5StorageAPDU.read(block: 256).bytes(.inP2) == nil, "2-byte block numbers need FF C2")
        #expect(Type5StorageAPDU.update(block: 1, data: []).bytes(.inP2) == nil)
    }
}
