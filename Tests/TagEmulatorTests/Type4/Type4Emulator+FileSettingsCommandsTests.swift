import NFCTags
import Testing

@testable import TagEmulator

/// GetFileSettings, ChangeFileSettings and GetFileCounters on the emulated NTAG 424 DNA (`docs/reference/type4.md`
/// §2.7, §2.10): AN12196's exchange, and the chip's refusals of SDM settings.
@Suite struct Type4EmulatorFileSettingsCommandsTests {
    /// A tag whose files may all be changed freely (Change right `E`), so settings can be sent in plain.
    static func openTag() throws -> Type4Emulator {
        let tag = try activeNTAG424()
        for file in tag.application.files {
            var settings = file.settings
            settings.change = .free
            try tag.setFileSettings(settings, ofFile: file.number)
        }
        return tag
    }

    /// ChangeFileSettings of file `file` with `data`, plain.
    static func change(_ tag: Type4Emulator, file: UInt8 = 2, _ data: String) throws -> [UInt8] {
        let body = [file] + (try hex(data))
        return tag.send([0x90, 0x5F, 0x00, 0x00, UInt8(body.count)] + body + [0x00])
    }

    /// AN12196 Table 19 at CmdCtr 1 of the Table 14 session; GetFileSettings then reports the new settings
    /// and SDMReadCtr starts at 0.
    @Test func changeFileSettingsReplaysAN12196Table19() throws {
        let tag = try activeNTAG424(
            random: [.rndB: AN12196.rndB, .transactionIdentifier: AN12196.transactionIdentifier])
        try tag.setSDMReadCounter(41, ofFile: 2)
        let host = try hostNTAG424(tag, rndA: AN12196.rndA)
        try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        _ = try host.getKeyVersion(0)
        let apdu = "90 5F 00 00 19 02 61B6D97903566E84C3AE5274467E89EA D799B7C1A0EF7A04 00"
        #expect(try tag.send(apdu) == hex("57BFF87B1241E93D 91 00"))
        let settings = tag.application.files[1].settings
        #expect(settings.encoded == (try hex("40 00E0 C1 F121 200000 430000 430000")))
        #expect(settings.read == .free && settings.write == .key(0) && settings.change == .key(0))
        #expect(tag.application.files[1].sdmReadCounter == 0)
        #expect(try tag.send("90 F5 00 00 01 02 00") == hex("91 7E"), "the host's session moved on without it")
        #expect(try tag.send("90 F5 00 00 01 02 00") == hex("00 40 00E0 000100 C1 F121 200000 430000 430000 91 00"))
    }

    @Test func theHostChangesSettingsInFullModeAndReadsThemInMACMode() throws {
        let tag = try activeNTAG424()
        let host = try hostNTAG424(tag)
        try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        let bolt = try hex("40 00E0 C1 FF12 2A0000 4F0000 4F0000")
        try host.changeFileSettings(2, settings: bolt)
        #expect(try host.getFileSettings(2) == [0x00] + bolt[0...2] + [0x00, 0x01, 0x00] + bolt[3...])
        #expect(host.session == tag.messaging && tag.messaging?.commandCounter == 2)
    }

    @Test(arguments: [
        // Accepted: Bolt, AN12196 Table 6, plain mirrors, a limit, a counter that is not mirrored.
        ("40 EEE0 C1 FF12 200000 430000 430000", "91 00"),
        ("40 EEE0 D1 FE00 1F0000 440000 440000 200000 6A0000", "91 00"),
        ("40 EEE0 C1 FEE2 100000 1F0000 100000 260000", "91 00"),
        ("40 EEE0 E1 FF12 200000 430000 430000 010000", "91 00"),
        ("43 EEE0 41 FEEF FFFFFF", "91 00"),
        // MetaRead set while neither the UID nor the counter is mirrored.
        ("40 EEE0 01 FF12 200000 430000 430000", "91 9E"),
        // UID mirrored without MetaRead.
        ("40 EEE0 81 FFF2 430000 430000", "91 9E"),
        // CtrRet without SDMReadCtr.
        ("40 EEE0 81 F112 200000 430000 430000", "91 9E"),
        // PICCData and SDMMAC overlap.
        ("40 EEE0 C1 FF12 200000 300000 300000", "91 9E"),
        // SDMENCFileData with FileRead F.
        ("40 EEE0 D1 FF1F 200000", "91 9E"),
        // SDMENCFileData without the counter.
        ("40 EEE0 91 FF12 200000 440000 440000 200000 6A0000", "91 9E"),
        // A limit without the counter.
        ("40 EEE0 A1 FF12 200000 430000 430000 100000", "91 9E"),
        // A limit not above the counter (0).
        ("40 EEE0 E1 FF12 200000 430000 430000 000000", "91 9E"),
        // SDMENCLength not a multiple of 32.
        ("40 EEE0 D1 FF12 200000 440000 440000 100000 6A0000", "91 9E"),
        // SDMMACInputOffset beyond SDMMACOffset.
        ("40 EEE0 C1 FF12 200000 500000 430000", "91 9E"),
        // PICCData beyond the file's end.
        ("40 EEE0 C1 FF12 F00000 430000 430000", "91 9E"),
        // SDMMACOffset inside the encrypted data.
        ("40 EEE0 D1 FF12 100000 440000 440000 200000 500000", "91 9E"),
        // The MAC input starts inside the encrypted data.
        ("40 EEE0 D1 FF12 100000 500000 440000 200000 6A0000", "91 9E"),
        // Too short, too long.
        ("40 EEE0 C1 FF12 200000 430000", "91 7E"),
        ("40 EEE0 C1 FF12 200000 430000 430000 00", "91 7E"),
        ("40 EE", "91 7E"),
    ])
    func settingsOfFile02AreCheckedLikeTheChip(data: String, status: String) throws {
        let tag = try Self.openTag()
        let before = tag.application.files[1].settings
        #expect(try Self.change(tag, data) == hex(status))
        if status == "91 00" {
            #expect(tag.application.files[1].settings.encoded == (try hex(data)))
        } else {
            #expect(tag.application.files[1].settings == before)
        }
    }

    @Test func sdmOnlyOnFile02AndTheChangeRightRules() throws {
        let tag = try Self.openTag()
        #expect(try Self.change(tag, file: 1, "40 E0E0 C1 FF12 000000 100000 100000") == hex("91 9D"))
        #expect(try Self.change(tag, file: 4, "00 E0E0") == hex("91 F0"))
        #expect(try Self.change(tag, file: 3, "03 3F23") == hex("91 00"))
        #expect(try Self.change(tag, file: 3, "03 3023") == hex("91 9D"), "Change right F")
        let factory = try activeNTAG424()
        #expect(try Self.change(factory, "00 E0EE") == hex("91 AE"), "Change right key 0, not authenticated")
        let host = try hostNTAG424(factory)
        try host.authenticateEV2First(keyNumber: 1, key: AN12196.zeroKey)
        #expect(throws: NTAG424Error(status: 0x91AE, instruction: 0x5F)) {
            try host.changeFileSettings(2, settings: try hex("00 E0EE"))
        }
    }

    @Test func getFileCountersFollowsSDMCtrRet() throws {
        let tag = try Self.openTag()
        #expect(try tag.send("90 F6 00 00 01 02 00") == hex("91 9D"), "SDM off")
        #expect(try Self.change(tag, "40 EEE0 C1 FEE2 100000 1F0000 100000 260000") == hex("91 00"))
        #expect(try tag.send("90 F6 00 00 01 02 00") == hex("00 00 00 00 00 91 00"))
        try tag.setSDMReadCounter(0x010203, ofFile: 2)
        #expect(try tag.send("90 F6 00 00 01 02 00") == hex("03 02 01 00 00 91 00"))
        #expect(try Self.change(tag, "40 EEE0 C1 F1E2 100000 1F0000 100000 260000") == hex("91 00"))
        #expect(try tag.send("90 F6 00 00 01 02 00") == hex("91 AE"), "CtrRet key 1, not authenticated")
        let host = try hostNTAG424(tag)
        try host.authenticateEV2First(keyNumber: 1, key: AN12196.zeroKey)
        #expect(try host.command(0xF6, header: [0x02], mode: .full) == [0, 0, 0, 0, 0])
        #expect(try Self.change(tag, "00 EEE0") == hex("91 7E"), "the session wants a MAC")
        #expect(tag.session.authentication == nil)
        #expect(try Self.change(tag, "00 EEE0") == hex("91 00"))
        #expect(try tag.send("90 F6 00 00 01 02 00") == hex("91 9D"), "SDM off again")
    }

    @Test(arguments: [
        ("90 F5 00 00 01 04 00", "91 F0"), ("90 F5 00 00 00", "91 7E"), ("90 F5 00 00 02 02 00 00", "91 7E"),
    ])
    func getFileSettingsRefusals(apdu: String, status: String) throws {
        let tag = try activeNTAG424()
        #expect(try tag.send(apdu) == hex(status))
    }

    @Test func fileCommandsNeedTheApplication() throws {
        let tag = try activeType4Tag()
        for apdu in ["90 F5 00 00 01 02 00", "90 AD 00 00 07 02 000000 000000 00", "90 64 00 00 01 00 00"] {
            #expect(try tag.send(apdu) == hex("91 9D"))
        }
    }
}
