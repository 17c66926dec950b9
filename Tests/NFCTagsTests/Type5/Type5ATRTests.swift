import NDEF
import NFCTags
import Testing

/// The ISO 15693 part 3 ATR and the UID order of `FF CA` (`docs/reference/type5.md` §3.1–3.2), both ways.
@Suite struct Type5ATRTests {
    static let vectors: [(uid: String, atr: String, name: [UInt8])] = [
        ("E0 04 01 08 00 00 00 01", "3B 8F 80 01 80 4F 0C A0 00 00 03 06 0B 00 14 00 00 00 00 77", [0x00, 0x14]),
        ("E0 07 C4 00 00 00 00 01", "3B 8F 80 01 80 4F 0C A0 00 00 03 06 0B 00 12 00 00 00 00 71", [0x00, 0x12]),
        ("E0 02 08 00 00 00 00 01", "3B 8F 80 01 80 4F 0C A0 00 00 03 06 0B 00 00 00 00 00 00 63", [0x00, 0x00]),
    ]

    @Test(arguments: vectors) func buildsAndRecognisesTheReferenceATRs(uid: String, atr: String, name: [UInt8]) throws {
        let bytes = try #require(Hex.bytes(atr))
        #expect(Type5ATR.bytes(uid: try #require(Hex.bytes(uid))) == bytes)
        #expect(Type5ATR(bytes)?.cardName == name)
    }

    @Test func otherATRsAreNotType5() throws {
        let type2 = try #require(Hex.bytes("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68"))
        #expect(Type5ATR(type2) == nil)
        #expect(Type5ATR([0x3B, 0x81, 0x80, 0x01, 0x80, 0x80]) == nil)
        var badCheck = Type5ATR.bytes(uid: [0xE0, 0x04, 0x01, 0x08, 0, 0, 0, 1])
        badCheck[19] ^= 0x01
        #expect(Type5ATR(badCheck) == nil, "a wrong TCK")
        #expect(Type4ATR(Type5ATR.bytes(uid: [0xE0, 0x04, 0x01, 0x08, 0, 0, 0, 1])) == nil, "no overlap with Type 4")
    }

    @Test func theUIDComesOutInDisplayOrderWhicheverOrderTheReaderGivesIt() throws {
        let display: [UInt8] = [0xE0, 0x04, 0x01, 0x08, 0x12, 0x34, 0x56, 0x78]
        #expect(Type5ATR.displayOrderUID(display.reversed()) == display, "air order (ACS) is reversed")
        #expect(Type5ATR.displayOrderUID(display) == display, "display order is kept")
        #expect(Type5ATR.displayOrderUID([0x04, 0xA1, 0xB2]) == [0x04, 0xA1, 0xB2], "not an ISO 15693 UID: kept")
        let atr = try #require(Type5ATR(Type5ATR.bytes(uid: display)))
        let tag = atr.detectedTag(reportedUID: display.reversed())
        #expect(tag.uid == display && tag.isISO15693)
        #expect(TagFamilies.standard.family(for: tag)?.name == "type5")
    }
}
