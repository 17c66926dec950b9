import NFCTags
import TagEmulator
import Testing

@Suite struct Type4EmulatorISOCommandsTests {
    static let selectApp = "00 A4 04 00 07 D2 76 00 00 85 01 01 00"

    @Test func fullT4TReadSequenceOnTheDeliveryState() throws {
        let tag = try activeType4Tag()
        #expect(try tag.send(Self.selectApp) == hex("90 00"))
        #expect(try tag.send("00 A4 00 0C 02 E1 03") == hex("90 00"))
        #expect(try tag.send("00 B0 00 00 0F") == hex("00 17 20 01 00 00 FF 04 06 E1 04 01 00 00 00 90 00"))
        #expect(try tag.send("00 B0 00 0F 08") == hex("05 06 E1 05 00 80 82 83 90 00"))
        #expect(try tag.send("00 B0 00 17 09") == hex("00 00 00 00 00 00 00 00 00 90 00"))
        #expect(try tag.send("00 A4 00 0C 02 E1 04") == hex("90 00"))
        #expect(try tag.send("00 B0 00 00 02") == hex("00 00 90 00"))
    }

    @Test(arguments: [
        // (APDUs before, the refused APDU, its answer)
        ([String](), "00 A4 04 00 07 D2 76 00 00 85 01 02 00", "6A 82"),
        ([selectApp], "00 A4 00 0C 02 E1 07", "6A 82"),
        ([selectApp], "00 A4 04 04 07 D2 76 00 00 85 01 01 00", "6A 86"),
        ([selectApp], "00 A4 05 0C 02 E1 04", "6A 86"),
        ([selectApp], "00 A4 00 0C 01 E1", "67 00"),
        ([selectApp], "00 B0 00 00 02", "69 85"),
        ([selectApp], "00 D6 00 00 01 AA", "69 85"),
        ([selectApp, "00 A4 00 0C 02 E1 05"], "00 B0 00 00 10", "69 82"),
        ([selectApp, "00 A4 00 0C 02 E1 05"], "00 D6 00 00 01 AA", "69 82"),
        ([selectApp, "00 A4 00 0C 02 E1 03"], "00 D6 00 0E 01 FF", "69 82"),
        ([selectApp, "00 A4 00 0C 02 E1 04"], "00 D6 00 FF 02 AA BB", "69 85"),
        ([selectApp, "00 A4 00 0C 02 E1 04"], "00 B0 01 01 01", "69 85"),
        ([selectApp, "00 A4 00 0C 02 E1 04"], "00 B0 00 00", "67 00"),
        ([selectApp, "00 A4 00 0C 02 E1 04"], "00 D6 00 00 03 AA", "67 00"),
        ([selectApp], "00 B0 84 00 01", "6A 82"),
        ([selectApp], "00 CA 00 00 00", "6D 00"),
        ([selectApp], "80 A4 04 00 07 D2 76 00 00 85 01 01 00", "6E 00"),
        ([selectApp], "90 FF 00 00 00", "91 1C"),
        ([selectApp], "00 A4 04", "67 00"),
        ([String](), "00 A4 00 0C 02 E1 04", "6A 82"),
    ])
    func refusals(before: [String], command: String, answer: String) throws {
        let tag = try activeType4Tag()
        for apdu in before { #expect(try tag.send(apdu) == hex("90 00")) }
        #expect(try tag.send(command) == hex(answer))
    }

    @Test func unknownNameOrFileKeepsTheSelection() throws {
        let tag = try activeType4Tag()
        _ = try tag.send(Self.selectApp)
        _ = try tag.send("00 A4 00 0C 02 E1 03")
        #expect(try tag.send("00 A4 04 00 07 D2 76 00 00 85 01 02 00") == hex("6A 82"))
        #expect(try tag.send("00 A4 00 0C 02 E1 09") == hex("6A 82"))
        #expect(try tag.send("00 B0 00 00 03") == hex("00 17 20 90 00"))
    }

    @Test func readAtTheFileEndIsShortWithoutError() throws {
        let tag = try activeType4Tag()
        _ = try tag.send(Self.selectApp)
        _ = try tag.send("00 A4 00 0C 02 E1 03")
        #expect(try tag.send("00 B0 00 1C 10") == hex("00 00 00 00 90 00"))
        #expect(try tag.send("00 B0 00 20 01") == hex("90 00"))
        #expect(try tag.send("00 B0 00 00 00").count == 32 + 2)
        _ = try tag.send("00 A4 00 0C 02 E1 04")
        let whole = try tag.send("00 B0 00 00 00")
        #expect(whole.count == 258)
        #expect(whole.suffix(2) == [0x90, 0x00])
    }

    @Test func updateThenReadBack() throws {
        let tag = try activeType4Tag()
        _ = try tag.send(Self.selectApp)
        _ = try tag.send("00 A4 00 0C 02 E1 04")
        #expect(try tag.send("00 D6 00 00 05 00 03 D0 00 00") == hex("90 00"))
        #expect(try tag.send("00 B0 00 00 05") == hex("00 03 D0 00 00 90 00"))
        #expect(try tag.send("00 D6 00 FE 02 AA BB") == hex("90 00"))
        #expect(try tag.send("00 B0 00 FE 00") == hex("AA BB 90 00"))
    }

    @Test func shortFileIdentifierFormSelectsTheFile() throws {
        let tag = try activeType4Tag()
        _ = try tag.send(Self.selectApp)
        #expect(try tag.send("00 B0 81 00 05") == hex("00 17 20 01 00 90 00"))
        #expect(tag.session.file == 0x01)
        #expect(try tag.send("00 B0 00 05 02") == hex("00 FF 90 00"))
        #expect(try tag.send("00 D6 82 10 02 AA BB") == hex("90 00"))
        #expect(tag.session.file == 0x02)
        #expect(try tag.send("00 B0 00 10 02") == hex("AA BB 90 00"))
        #expect(try tag.send("00 B0 C1 00 01") == hex("6A 86"))
    }

    @Test func masterFileParentAndFileIdentifierSelection() throws {
        let tag = try activeType4Tag()
        #expect(try tag.send("00 A4 04 0C 07 D2 76 00 00 85 01 00") == hex("90 00"))
        #expect(tag.session.level == .masterFile)
        #expect(try tag.send("00 A4 00 0C 02 E1 10") == hex("90 00"))
        #expect(tag.session.level == .application)
        #expect(try tag.send("00 A4 02 0C 02 E1 04") == hex("90 00"))
        #expect(try tag.send("00 A4 03 0C") == hex("90 00"))
        #expect(tag.session.file == nil)
        #expect(try tag.send("00 B0 00 00 01") == hex("69 85"))
        #expect(try tag.send("00 A4 03 0C") == hex("90 00"))
        #expect(tag.session.level == .masterFile)
        #expect(try tag.send("00 A4 00 0C 02 E1 04") == hex("6A 82"))
        #expect(try tag.send("00 A4 01 0C 02 E1 10") == hex("90 00"))
        #expect(try tag.send("00 A4 00 00 02 3F 00") == hex("90 00"))
        #expect(tag.session.level == .masterFile)
        #expect(try tag.send("00 A4 00 0C") == hex("90 00"))
    }

    @Test func unformattedTagHasNoNDEFApplication() throws {
        var faults = TagFaults()
        faults.unformatted = true
        let tag = try activeType4Tag(faults: faults)
        #expect(try tag.send(Self.selectApp) == hex("6A 82"))
        #expect(try tag.send("00 A4 00 0C 02 E1 10") == hex("6A 82"))
    }

    @Test func preLockedNTAG424RefusesNDEFUpdates() throws {
        var faults = TagFaults()
        faults.preLocked = true
        let tag = try activeType4Tag(faults: faults)
        _ = try tag.send(Self.selectApp)
        #expect(try tag.send("00 B0 81 0E 01") == hex("FF 90 00"))
        _ = try tag.send("00 A4 00 0C 02 E1 04")
        #expect(try tag.send("00 D6 00 00 02 00 00") == hex("69 82"))
        #expect(try tag.send("00 B0 00 00 02") == hex("00 00 90 00"))
    }
}
