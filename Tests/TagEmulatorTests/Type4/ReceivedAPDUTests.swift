import Testing

@testable import TagEmulator

@Suite struct ReceivedAPDUTests {
    @Test(
        arguments: [
            // (APDU, data count, Le, length consistent)
            ("00 A4 00 0C", 0, nil, true),
            ("00 B0 00 00 0F", 0, 15, true),
            ("00 B0 00 00 00", 0, 256, true),
            ("00 A4 00 0C 02 E1 03", 2, nil, true),
            ("00 A4 04 00 07 D2 76 00 00 85 01 01 00", 7, 256, true),
            ("00 D6 00 00 02 AA BB 10", 2, 16, true),
            ("00 D6 00 00 03 AA", 0, nil, false),
            ("00 D6 00 00 00 01 00", 0, nil, false),
            ("00 D6 00 00 01 AA BB CC", 0, nil, false),
        ] as [(String, Int, Int?, Bool)])
    func parsesTheFourShortCases(apdu: String, dataCount: Int, le: Int?, consistent: Bool) throws {
        let parsed = try #require(ReceivedAPDU.parse(try hex(apdu)))
        #expect(parsed.apdu.data.count == dataCount)
        #expect(parsed.apdu.le == le)
        #expect(parsed.lengthValid == consistent)
        #expect(parsed.apdu.ins == (try hex(apdu))[1])
    }

    @Test func fewerThanFourBytesIsNoAPDU() throws {
        for cut in 0..<4 {
            #expect(ReceivedAPDU.parse(Array(try hex("00 A4 04 00").prefix(cut))) == nil)
        }
    }
}
