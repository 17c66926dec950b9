import NFCTags
import TagEmulator
import Testing

@Suite struct Type4EmulatorFilesTests {
    static let selectApp = "00 A4 04 00 07 D2 76 00 00 85 01 01 00"

    @Test func genericMapping20CapabilityContainer() throws {
        let tag = try activeType4Tag(.genericDefault)
        _ = try tag.send(Self.selectApp)
        _ = try tag.send("00 A4 00 0C 02 E1 03")
        let cc = try tag.send("00 B0 00 00 0F")
        #expect(cc == (try hex("00 0F 20 00 F6 00 F6 04 06 E1 04 08 00 00 00 90 00")))
        let container = try Type4CapabilityContainer(Array(cc.dropLast(2)))
        #expect(container.capacity == 2046)
        #expect(!container.extendedLength)
        #expect(tag.tagChip == TagChip(family: "type4", id: "type4", displayName: "Type 4 tag"))
    }

    @Test func genericMapping30CapabilityContainerWithENLEN() throws {
        let chip = Type4EmulatedChip.generic(mapping: 0x30, ndefFileSize: 4096, mle: 0xFF, mlc: 0xFF)
        let tag = try activeType4Tag(chip)
        _ = try tag.send(Self.selectApp)
        _ = try tag.send("00 A4 00 0C 02 E1 03")
        let cc = try tag.send("00 B0 00 00 00")
        #expect(cc == (try hex("00 11 30 00 FF 00 FF 06 08 E1 04 00 00 10 00 00 00 90 00")))
        let container = try Type4CapabilityContainer(Array(cc.dropLast(2)))
        #expect(container.extendedLength)
        #expect(container.capacity == 4092)
    }

    @Test(arguments: [
        Type4EmulatedChip.generic(mapping: 0x10, ndefFileSize: 2048, mle: 0xF6, mlc: 0xF6),
        .generic(mapping: 0x20, ndefFileSize: 4, mle: 0xF6, mlc: 0xF6),
        .generic(mapping: 0x20, ndefFileSize: 0x8000, mle: 0xF6, mlc: 0xF6),
        .generic(mapping: 0x20, ndefFileSize: 2048, mle: 0x0E, mlc: 0xF6),
        .generic(mapping: 0x30, ndefFileSize: 2048, mle: 0xF6, mlc: 0),
    ])
    func genericParametersOutOfRangeAreRefused(chip: Type4EmulatedChip) {
        #expect(throws: Type4EmulatorError.self) { try Type4Emulator(chip: chip, uid: type4UID) }
    }

    @Test(arguments: [UInt8(0x20), 0x30])
    func ccWriteByteFFLocksTheNDEFFileAndTheCC(mapping: UInt8) throws {
        let chip = Type4EmulatedChip.generic(mapping: mapping, ndefFileSize: 2048, mle: 0xF6, mlc: 0xF6)
        let tag = try activeType4Tag(chip)
        let offset = mapping == 0x30 ? "10" : "0E"
        _ = try tag.send(Self.selectApp)
        _ = try tag.send("00 A4 00 0C 02 E1 04")
        #expect(try tag.send("00 D6 00 00 02 00 03") == hex("90 00"))
        _ = try tag.send("00 A4 00 0C 02 E1 03")
        #expect(try tag.send("00 D6 00 \(offset) 01 00") == hex("90 00"))
        #expect(try tag.send("00 D6 00 \(offset) 01 FF") == hex("90 00"))
        #expect(try tag.send("00 D6 00 \(offset) 01 00") == hex("69 82"))
        #expect(try tag.send("00 B0 00 \(offset) 01") == hex("FF 90 00"))
        _ = try tag.send("00 A4 00 0C 02 E1 04")
        #expect(try tag.send("00 D6 00 00 02 00 00") == hex("69 82"))
        #expect(try tag.send("00 B0 00 00 02") == hex("00 03 90 00"))
        let restored = try Type4Emulator(image: tag.image, chip: chip, uid: type4UID)
        #expect(restored.activate() != nil)
        _ = try restored.send(Self.selectApp)
        _ = try restored.send("00 A4 00 0C 02 E1 04")
        #expect(try restored.send("00 D6 00 00 02 00 00") == hex("69 82"))
    }

    @Test func preLockedGenericTagArrivesReadOnly() throws {
        var faults = TagFaults()
        faults.preLocked = true
        let tag = try activeType4Tag(.genericDefault, faults: faults)
        _ = try tag.send(Self.selectApp)
        #expect(try tag.send("00 B0 81 0E 01") == hex("FF 90 00"))
        #expect(try tag.send("00 D6 82 00 02 00 00") == hex("69 82"))
    }

    @Test func imageRoundTripKeepsEveryFile() throws {
        let tag = try activeType4Tag()
        #expect(tag.image.count == 32 + 256 + 128)
        _ = try tag.send(Self.selectApp)
        _ = try tag.send("00 D6 82 00 04 00 02 AB CD")
        _ = try tag.send("00 D6 82 FF 01 EE")
        let restored = try Type4Emulator(image: tag.image, chip: .ntag424, uid: type4UID)
        #expect(restored.image == tag.image)
        #expect(restored.image[32..<36] == [0x00, 0x02, 0xAB, 0xCD])
        #expect(restored.image[32 + 255] == 0xEE)
        #expect(restored.activate() != nil)
        _ = try restored.send(Self.selectApp)
        #expect(try restored.send("00 B0 82 00 04") == hex("00 02 AB CD 90 00"))
        #expect(throws: Type4EmulatorError.imageSize(expected: 416, actual: 415)) {
            try Type4Emulator(image: [UInt8](repeating: 0, count: 415), chip: .ntag424, uid: type4UID)
        }
        #expect(throws: Type4EmulatorError.invalidUID([0x04])) { try Type4Emulator(chip: .ntag424, uid: [0x04]) }
    }

    @Test func onMemoryWrittenFiresAfterEachWrite() throws {
        let tag = try activeType4Tag()
        var writes = 0
        tag.onMemoryWritten = { writes += 1 }
        _ = try tag.send(Self.selectApp)
        _ = try tag.send("00 A4 00 0C 02 E1 04")
        _ = try tag.send("00 B0 00 00 02")
        #expect(writes == 0)
        _ = try tag.send("00 D6 00 00 02 00 00")
        _ = try tag.send("00 D6 00 10 01 01")
        _ = try tag.send("00 D6 01 00 01 01")
        #expect(writes == 2)
    }

    @Test func deliveryFileSettings() throws {
        let files = try Type4EmulatedChip.ntag424.deliveryFiles()
        #expect(files.map(\.identifier) == [0xE103, 0xE104, 0xE105])
        #expect(files.map(\.settings.accessRights) == [0xE000, 0xEEE0, 0x2330])
        #expect(files.map(\.settings.communicationMode) == [.plain, .plain, .full])
        #expect(files[2].settings.read == .key(2))
        #expect(Type4FileSettings.Access(nibble: 0x0F) == .never)
        #expect(Type4FileSettings.Access(nibble: 0x07) == .never)
    }

    /// The delivery GetFileSettings answers of files 01–03 (§2.7, a factory tag's dump).
    @Test(arguments: zip([UInt8(1), 2, 3], ["00 00 00 E0 20 00 00", "00 00 E0 EE 00 01 00", "00 03 30 23 80 00 00"]))
    func deliverySettingsBothWays(file: UInt8, answer: String) throws {
        let bytes = try hex(answer)
        let delivered = try #require(try Type4EmulatedChip.ntag424.deliveryFiles().first { $0.number == file })
        #expect(delivered.settings.fileSettingsAnswer(fileSize: delivered.size) == bytes)
        #expect(try Type4FileSettings(decoding: Array(bytes[1...3]), sdmCapable: false) == delivered.settings)
    }
}
