import NFCTags
import TagEmulator
import Testing

/// The simulator side's setters of the emulated NTAG 424 DNA's secure state: checked like the commands.
@Suite struct Type4EmulatorPersonalisationTests {
    static func sdm(_ wire: String) throws -> Type4FileSettings {
        try Type4FileSettings(decoding: try hex(wire), sdmCapable: true)
    }

    @Test func setFileSettingsChecksLikeChangeFileSettingsAndResetsTheCounter() throws {
        let tag = try Type4Emulator(chip: .ntag424, uid: type4UID)
        var writes = 0
        tag.onMemoryWritten = { writes += 1 }
        try tag.setSDMReadCounter(77, ofFile: 2)
        #expect(tag.application.files[1].sdmReadCounter == 77)
        try tag.setFileSettings(try Self.sdm("40 00E0 C1 FF12 200000 430000 430000"), ofFile: 2)
        #expect(tag.application.files[1].sdmReadCounter == 0)
        #expect(tag.application.files[1].settings.sdm?.fileRead == .key(2))
        #expect(writes == 2)
        let overlapping = try Self.sdm("40 00E0 C1 FF12 200000 300000 300000")
        #expect(throws: Type4EmulatorError.self) { try tag.setFileSettings(overlapping, ofFile: 2) }
        let valid = try Self.sdm("40 00E0 C1 FF12 200000 430000 430000")
        #expect(throws: Type4EmulatorError.self) { try tag.setFileSettings(valid, ofFile: 1) }
        #expect(throws: Type4EmulatorError.self) { try tag.setFileSettings(valid, ofFile: 9) }
        #expect(tag.application.files[1].settings.sdm?.piccDataOffset == 0x20 && writes == 2)
    }

    @Test func setSDMReadCounterIs24Bits() throws {
        let tag = try Type4Emulator(chip: .ntag424, uid: type4UID)
        try tag.setSDMReadCounter(0xFF_FFFF, ofFile: 2)
        #expect(throws: Type4EmulatorError.invalidSetting("SDMReadCtr is 24 bits, got 16777216")) {
            try tag.setSDMReadCounter(0x100_0000, ofFile: 2)
        }
        #expect(throws: Type4EmulatorError.invalidSetting("no file 4")) { try tag.setSDMReadCounter(1, ofFile: 4) }
        #expect(tag.application.files[1].sdmReadCounter == 0xFF_FFFF)
    }
}
