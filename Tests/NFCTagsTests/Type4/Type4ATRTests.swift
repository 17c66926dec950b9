import NDEF
import NFCTags
import Testing

/// The PC/SC part 3 ATR of an ISO-DEP card (`docs/reference/type4.md` §1.9), both ways.
@Suite struct Type4ATRTests {
    private typealias V = Type4Vectors

    @Test func theNTAG424ATRCarriesItsOneHistoricalByte() throws {
        let atr = try #require(Type4ATR(V.hex("3B 81 80 01 80 80")))
        #expect(atr.historicalBytes == [0x80])
        #expect(Type4ATR.bytes(historicalBytes: [0x80]) == V.hex("3B 81 80 01 80 80"))
    }

    @Test func aWrongTCKIsNotRecognised() {
        #expect(Type4ATR(V.hex("3B 81 80 01 80 81")) == nil)
        #expect(Type4ATR(V.hex("3B 81 80 01 80")) == nil, "TCK missing")
        #expect(Type4ATR(V.hex("3B 82 80 01 80 80")) == nil, "one historical byte short")
    }

    @Test func aStorageCardATRIsNotAnISODEPCard() {
        // A Type 2 tag behind PC/SC (docs/reference/pcsc.md §10.1): part 3 ATR with the 80 4F RID application data.
        #expect(Type4ATR(V.hex("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68")) == nil)
        #expect(Type4ATR(V.hex("3B 02 14 50")) == nil, "a contact card")
    }

    @Test(arguments: [[UInt8](), [0x80], Array(0x41...0x4F)])
    func bytesAndRecognitionAreInverse(historical: [UInt8]) throws {
        let atr = Type4ATR.bytes(historicalBytes: historical)
        #expect(try #require(Type4ATR(atr)).historicalBytes == historical)
    }

    @Test func theDetectedTagIsOneTheType4FamilyHandles() throws {
        let atr = try #require(Type4ATR(V.hex("3B 81 80 01 80 80")))
        let detected = atr.detectedTag(uid: V.uid424, ats: V.ats424)
        #expect(detected.sak == 0x20 && detected.ats == V.ats424)
        #expect(TagFamilies([Type2Family(), Type4Family()]).family(for: detected)?.name == "type4")
    }
}

extension Type4ATRTests {
    @Test func historicalBytesInCompactTLVThatAreNotPCSCsRIDStayAnISODEPCard() throws {
        let historical = V.hex("80 4F 05 A0 00 00 00 03")
        let atr = try #require(Type4ATR(Type4ATR.bytes(historicalBytes: historical)))
        #expect(atr.historicalBytes == historical)
    }
}
