import NFCTags
import TagEmulator
import Testing

@Suite struct Type4EmulatorNativeCommandsTests {
    @Test func getVersionAnswersThreeParts() throws {
        let tag = try activeType4Tag()
        #expect(try tag.send("90 60 00 00 00") == hex("04 04 02 30 00 11 05 91 AF"))
        #expect(try tag.send("90 AF 00 00 00") == hex("04 04 02 01 02 11 05 91 AF"))
        #expect(try tag.send("90 AF 00 00 00") == hex("04 96 8C AA 5C 5E 80 CD 65 93 5D 40 21 18 91 00"))
        #expect(try tag.send("90 AF 00 00 00") == hex("91 1C"))
    }

    @Test func productionDataComesFromTheConfiguration() throws {
        var configuration = Type4EmulatorConfiguration()
        configuration.batchNumber = [0x01, 0x02, 0x03, 0x04, 0x05]
        configuration.productionWeek = 0x07
        configuration.productionYear = 0x26
        let tag = try activeType4Tag(configuration: configuration)
        _ = try tag.send("90 60 00 00 00")
        _ = try tag.send("90 AF 00 00 00")
        #expect(try tag.send("90 AF 00 00 00") == hex("04 96 8C AA 5C 5E 80 01 02 03 04 05 07 26 91 00"))
    }

    @Test func anotherNativeCommandAbortsThePendingGetVersion() throws {
        let tag = try activeType4Tag()
        _ = try tag.send("90 60 00 00 00")
        #expect(try tag.send("90 60 00 00 00") == hex("91 CA"))
        #expect(tag.session.pending == nil)
        #expect(try tag.send("90 AF 00 00 00") == hex("91 1C"))
        _ = try tag.send("90 60 00 00 00")
        _ = try tag.send("90 AF 00 00 00")
        #expect(try tag.send("90 F5 00 00 01 02 00") == hex("91 CA"))
        #expect(try tag.send("90 AF 00 00 00") == hex("91 1C"))
    }

    @Test func anISOCommandAbortsThePendingGetVersionWith6985() throws {
        let tag = try activeType4Tag()
        _ = try tag.send("90 60 00 00 00")
        #expect(try tag.send("00 A4 04 00 07 D2 76 00 00 85 01 01 00") == hex("69 85"))
        #expect(try tag.send("90 AF 00 00 00") == hex("91 1C"))
        #expect(try tag.send("00 A4 04 00 07 D2 76 00 00 85 01 01 00") == hex("90 00"))
    }

    @Test func malformedWrappingIsALengthError() throws {
        let tag = try activeType4Tag()
        #expect(try tag.send("90 60 00 00 01 00 00") == hex("91 7E"))
        #expect(try tag.send("90 60 00 00") == hex("91 7E"))
        #expect(try tag.send("90 60 00 00 02 00") == hex("91 7E"))
    }

    @Test func genericTagIsNotAnNXPChip() throws {
        let tag = try activeType4Tag(.genericDefault)
        #expect(try tag.send("90 60 00 00 00") == hex("6E 00"))
        #expect(try tag.send("00 A4 04 00 07 D2 76 00 00 85 01 00 00") == hex("6A 82"))
    }

    @Test func fieldOffForgetsThePendingStep() throws {
        let tag = try activeType4Tag()
        _ = try tag.send("90 60 00 00 00")
        tag.fieldOff()
        #expect(tag.activate() != nil)
        #expect(try tag.send("90 AF 00 00 00") == hex("91 1C"))
    }
}
