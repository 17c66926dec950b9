import Crypto
import NDEF
import NFCTags
import TagEmulator
import Testing

@Test func activationBytesMatchReferenceTrace() throws {
    let tag = try NTAGEmulator(chip: .ntag215, uid: hex("04 A1 B2 C3 D4 E5 F6"))
    #expect(tag.receiveRaw([0x26], lastByteBits: 7) == .data([0x44, 0x00]))
    #expect(tag.receiveRaw([0x93, 0x20], lastByteBits: 8) == .data(try hex("88 04 A1 B2 9F")))
    #expect(tag.receiveRaw(try hex("93 70 88 04 A1 B2 9F AE 4B"), lastByteBits: 8) == .data(try hex("04 DA 17")))
    #expect(tag.state == .ready2)
    #expect(tag.receiveRaw([0x95, 0x20], lastByteBits: 8) == .data(try hex("C3 D4 E5 F6 04")))
    #expect(tag.receiveRaw(try hex("95 70 C3 D4 E5 F6 04 9E 03"), lastByteBits: 8) == .data(try hex("00 FE 51")))
    #expect(tag.state == .active)
    #expect(tag.receiveRaw(try hex("50 00 57 CD"), lastByteBits: 8) == .silence)
    #expect(tag.state == .halt)
    #expect(tag.receiveRaw([0x26], lastByteBits: 7) == .silence)
    #expect(tag.receiveRaw([0x52], lastByteBits: 7) == .data([0x44, 0x00]))
    #expect(tag.state == .ready1)
}

@Test func selectWithWrongBCCOrCRCIsIgnored() throws {
    let tag = try NTAGEmulator(chip: .ntag215, uid: hex("04 A1 B2 C3 D4 E5 F6"))
    _ = tag.receiveRaw([0x26], lastByteBits: 7)
    #expect(tag.receiveRaw(try hex("93 70 88 04 A1 B2 9E AE 4B"), lastByteBits: 8) == .silence)
    #expect(tag.state == .idle)
}

@Test func rawCommandsCarryCRCAndCRCErrorIsNAK1() throws {
    let tag = try NTAGEmulator(chip: .ntag215, uid: exampleUID)
    #expect(tag.activate() != nil)
    #expect(tag.receiveRaw(try hex("60 F8 32"), lastByteBits: 8) == .data(try hex("00 04 04 02 01 00 11 03 01 9E")))
    #expect(tag.receiveRaw(try hex("1B FF FF FF FF 63 00"), lastByteBits: 8) == .data(try hex("00 00 A0 1E")))
    #expect(tag.receiveRaw(try hex("30 00 02 A9"), lastByteBits: 8) == .nak(0x01))
    #expect(tag.state == .idle)
    #expect(tag.receiveRaw(try hex("30 00 02 A8"), lastByteBits: 8) == .silence)
}

@Test(arguments: ChipModel.allCases)
func getVersionAnswersPerChip(chip: ChipModel) throws {
    let tag = try activeTag(chip)
    #expect(tag.exchange([0x60]) == .data(chip.version))
    #expect(ChipModel(version: chip.version) == chip)
}

@Test func factoryImageNTAG213MatchesReference() throws {
    let tag = try NTAGEmulator(chip: .ntag213, uid: exampleUID)
    #expect(tag.image.count == 45 * 4)
    let expected: [(Int, String)] = [
        (0, "04 51 7C A1"), (1, "E1 ED 25 80"), (2, "A9 48 00 00"), (3, "E1 10 12 00"), (4, "01 03 A0 0C"),
        (5, "34 03 00 FE"), (6, "00 00 00 00"), (0x27, "00 00 00 00"), (0x28, "00 00 00 BD"),
        (0x29, "04 00 00 FF"), (0x2A, "00 00 00 00"), (0x2B, "FF FF FF FF"), (0x2C, "00 00 00 00"),
    ]
    for (page, bytes) in expected { #expect(tag.storedPage(page) == (try hex(bytes)), "page \(page)") }
}

@Test(arguments: [
    (ChipModel.ntag215, 135, "E1 10 3E 00", 0x82, "00 00 00 00"), (.ntag216, 231, "E1 10 6D 00", 0xE2, "00 05 00 00"),
])
func factoryImagesNTAG215And216(chip: ChipModel, pages: Int, cc: String, lockPage: Int, cfg1: String) throws {
    let tag = try NTAGEmulator(chip: chip, uid: try hex("04 58 69 D2 9C 39 80"))
    #expect(tag.image.count == pages * 4)
    #expect(tag.storedPage(0) == (try hex("04 58 69 BD")))
    #expect(tag.storedPage(2) == (try hex("F7 48 00 00")))
    #expect(tag.storedPage(3) == (try hex(cc)))
    #expect(tag.storedPage(4) == (try hex("03 00 FE 00")))
    #expect(tag.storedPage(5) == [0, 0, 0, 0])
    #expect(tag.storedPage(lockPage) == (try hex("00 00 00 BD")))
    #expect(tag.storedPage(lockPage + 1) == (try hex("04 00 00 FF")))
    #expect(tag.storedPage(lockPage + 2) == (try hex(cfg1)))
    #expect(tag.storedPage(lockPage + 3) == (try hex("FF FF FF FF")))
}

@Test func cfg1Byte1SwitchAppliesToNTAG213() throws {
    var configuration = EmulatorConfiguration()
    configuration.cfg1Byte1 = 0x05
    let tag = try NTAGEmulator(chip: .ntag213, uid: exampleUID, configuration: configuration)
    #expect(tag.storedPage(0x2A) == (try hex("00 05 00 00")))
}

@Test(arguments: [ChipModel.mf0ul11, .mf0ul21])
func ultralightEV1FactoryHasNoCC(chip: ChipModel) throws {
    let tag = try NTAGEmulator(chip: chip, uid: exampleUID)
    #expect(tag.image.count == chip.pageCount * 4)
    #expect(tag.storedPage(3) == [0, 0, 0, 0])
    #expect(tag.storedPage(chip.cfg0Page) == (try hex("00 00 00 FF")))
    #expect(tag.storedPage(chip.cfg1Page) == (try hex("00 05 00 00")))
}

@Test func imageSaveLoadRoundTripKeepsPasswordAndData() throws {
    let tag = try activeTag(.ntag215)
    #expect(tag.write(5, [1, 2, 3, 4]) == .ack)
    #expect(tag.write(0x85, [0x12, 0x34, 0x56, 0x78]) == .ack)
    let copy = try NTAGEmulator(image: tag.image, chip: .ntag215)
    #expect(copy.image == tag.image)
    #expect(copy.uid == exampleUID)
    #expect(copy.activate() != nil)
    #expect(copy.exchange([0x1B, 0x12, 0x34, 0x56, 0x78]) == .data([0, 0]))
    #expect(throws: EmulatorError.imageSize(expected: 540, actual: 180)) {
        try NTAGEmulator(image: [UInt8](repeating: 0, count: 180), chip: .ntag215)
    }
    #expect(throws: EmulatorError.invalidUID([0x04])) { try NTAGEmulator(chip: .ntag213, uid: [0x04]) }
}

@Test func readSignatureVerifiesWithTestKeyOnly() throws {
    let tag = try activeTag(.ntag216)
    guard case .data(let signature) = tag.exchange([0x3C, 0x00]) else {
        Issue.record("READ_SIG did not answer data")
        return
    }
    #expect(signature.count == 32)
    #expect(OriginalitySignature.verify(uid: exampleUID, signature: signature, publicKey: TestSigningKey.publicKey))
    #expect(
        !OriginalitySignature.verify(
            uid: exampleUID, signature: signature, publicKey: OriginalitySignature.ntag21xPublicKey))
    #expect(try OriginalitySignature.publicKey(forPrivateKey: TestSigningKey.privateKey) == TestSigningKey.publicKey)
}

@Test func airtimeFollowsRFTiming() throws {
    let tag = try NTAGEmulator(chip: .ntag213, uid: exampleUID)
    let timing = RFTiming()
    _ = tag.activate()
    #expect(abs(tag.airtimeMicroseconds - timing.activation) < 0.001)
    var before = tag.airtimeMicroseconds
    _ = tag.exchange([0x30, 0x04])
    #expect(abs(tag.airtimeMicroseconds - before - timing.exchange(command: 2, answer: 16)) < 0.001)
    before = tag.airtimeMicroseconds
    #expect(tag.write(6, [1, 2, 3, 4]) == .ack)
    #expect(abs(tag.airtimeMicroseconds - before - timing.acknowledged(command: 6, programming: 4_100)) < 0.001)
    before = tag.airtimeMicroseconds
    tag.halt()
    #expect(abs(tag.airtimeMicroseconds - before - timing.unanswered(command: 2)) < 0.001)
}

@Test func programmingTimeIsConfigurable() throws {
    var configuration = EmulatorConfiguration()
    configuration.programmingMicroseconds = 10_000
    let tag = try activeTag(configuration: configuration)
    let before = tag.airtimeMicroseconds
    #expect(tag.write(6, [1, 2, 3, 4]) == .ack)
    #expect(abs(tag.airtimeMicroseconds - before - RFTiming().acknowledged(command: 6, programming: 10_000)) < 0.001)
}
