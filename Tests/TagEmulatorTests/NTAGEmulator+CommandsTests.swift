import NDEF
import NFCTags
import TagEmulator
import Testing

@Test func readRollsOverAndBlanksPasswordPages() throws {
    let tag = try activeTag(.ntag213)
    #expect(tag.write(0x2B, [0x11, 0x22, 0x33, 0x44]) == .ack)
    #expect(tag.write(0x2C, [0xAB, 0xCD, 0x00, 0x00]) == .ack)
    let answer = try #require(tag.readPages(0x2A))
    #expect(answer == (try hex("00 00 00 00 00 00 00 00 00 00 00 00 04 51 7C A1")))
    #expect(tag.storedPage(0x2B) == [0x11, 0x22, 0x33, 0x44])
    #expect(tag.readPages(0x2C) == (try hex("00 00 00 00 04 51 7C A1 E1 ED 25 80 A9 48 00 00")))
}

@Test func readPastLastPageIsNAK0ThenSilenceUntilReselected() throws {
    let tag = try activeTag(.ntag213)
    #expect(tag.exchange([0x30, 0x2D]) == .nak(0x00))
    #expect(tag.state == .idle)
    #expect(tag.exchange([0x30, 0x00]) == .silence)
    #expect(tag.activate() != nil)
    #expect(tag.readPages(0) != nil)
}

@Test func fastReadRangesAndLimits() throws {
    let tag = try activeTag(.ntag215)
    guard case .data(let all) = tag.exchange([0x3A, 0x00, 0x86]) else {
        Issue.record("FAST_READ 00-86 refused")
        return
    }
    #expect(all.count == 135 * 4)
    #expect(Array(all[0x85 * 4..<0x87 * 4]) == [UInt8](repeating: 0, count: 8))
    #expect(tag.exchange([0x3A, 0x04, 0x04]) == .data(try hex("03 00 FE 00")))
    #expect(tag.exchange([0x3A, 0x05, 0x04]) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.exchange([0x3A, 0x00, 0x87]) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.exchange([0x3A, 0x87, 0x87]) == .nak(0x00))
}

@Test(arguments: [0, 1, 0x2D, 0xFF])
func writeToReadOnlyOrMissingPageIsNAK0(page: Int) throws {
    let tag = try activeTag(.ntag213)
    let before = tag.image
    #expect(tag.write(page, [1, 2, 3, 4]) == .nak(0x00))
    #expect(tag.image == before)
    #expect(tag.state == .idle)
}

@Test func writeWithWrongLengthIsNAK0() throws {
    let tag = try activeTag()
    #expect(tag.exchange([0xA2, 0x05, 0x01]) == .nak(0x00))
}

@Test func compatibilityWriteIsTwoStepAndUsesFirstFourBytes() throws {
    let tag = try activeTag()
    #expect(tag.exchange([0xA0, 0x06]) == .ack)
    #expect(tag.exchange([0xDE, 0xAD, 0xBE, 0xEF] + [UInt8](repeating: 0x55, count: 12)) == .ack)
    #expect(tag.storedPage(6) == [0xDE, 0xAD, 0xBE, 0xEF])
    #expect(tag.storedPage(7) == [0, 0, 0, 0])
    #expect(tag.exchange([0xA0, 0x01]) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.exchange([0xA0, 0x06]) == .ack)
    #expect(tag.exchange([0x01, 0x02, 0x03, 0x04]) == .nak(0x00))
    #expect(tag.storedPage(6) == [0xDE, 0xAD, 0xBE, 0xEF])
}

@Test func fieldOffCancelsPendingCompatibilityWrite() throws {
    let tag = try activeTag()
    #expect(tag.exchange([0xA0, 0x06]) == .ack)
    tag.fieldOff()
    _ = tag.activate()
    #expect(tag.exchange([UInt8](repeating: 0x11, count: 16)) == .nak(0x00))
    #expect(tag.storedPage(6) == [0, 0, 0, 0])
}

@Test func capabilityContainerIsOneTimeProgrammable() throws {
    let tag = try activeTag(.ntag213)
    #expect(tag.write(3, [0x00, 0x00, 0x00, 0x0F]) == .ack)
    #expect(tag.storedPage(3) == (try hex("E1 10 12 0F")))
    #expect(tag.write(3, [0x00, 0x00, 0x00, 0x00]) == .ack)
    #expect(tag.storedPage(3) == (try hex("E1 10 12 0F")))
}

@Test func staticLockBitsOrInAndLockPages() throws {
    let tag = try activeTag(.ntag213)
    #expect(tag.write(2, [0xAA, 0xBB, 0x10, 0x00]) == .ack)
    #expect(tag.storedPage(2) == (try hex("A9 48 10 00")))
    #expect(tag.write(4, [1, 2, 3, 4]) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.write(5, [1, 2, 3, 4]) == .ack)
    #expect(tag.write(2, [0x00, 0x00, 0x00, 0x00]) == .ack)
    #expect(tag.storedPage(2) == (try hex("A9 48 10 00")))
    #expect(tag.write(2, [0x00, 0x00, 0xFF, 0xFF]) == .ack)
    #expect(tag.storedPage(2) == (try hex("A9 48 FF FF")))
    for page in 3...15 {
        _ = tag.activate()
        #expect(tag.write(page, [0, 0, 0, 0]) == .nak(0x00), "page \(page)")
    }
    _ = tag.activate()
    #expect(tag.write(16, [1, 1, 1, 1]) == .ack)
}

@Test func blockLockBitsFreezeStaticLockBits() throws {
    let tag = try activeTag(.ntag213)
    #expect(tag.write(2, [0, 0, 0x07, 0x00]) == .ack)  // BL-CC, BL 9-4, BL 15-10
    #expect(tag.write(2, [0, 0, 0xF8, 0xFF]) == .ack)
    #expect(tag.storedPage(2) == (try hex("A9 48 07 00")))
    #expect(tag.write(3, [0, 0, 0, 0x0F]) == .ack)
    #expect(tag.write(4, [1, 2, 3, 4]) == .ack)
    #expect(tag.write(15, [1, 2, 3, 4]) == .ack)
}

@Test func blockLockCCFreezesOnlyLCC() throws {
    let tag = try activeTag(.ntag213)
    #expect(tag.write(2, [0, 0, 0x01, 0x00]) == .ack)
    #expect(tag.write(2, [0, 0, 0x18, 0x00]) == .ack)
    #expect(tag.storedPage(2) == (try hex("A9 48 11 00")))
    #expect(tag.write(3, [0, 0, 0, 0x0F]) == .ack)
    #expect(tag.write(4, [1, 2, 3, 4]) == .nak(0x00))
}

@Test func dynamicLockBitsLockPageGroupsNTAG213() throws {
    let tag = try activeTag(.ntag213)
    #expect(tag.write(0x28, [0x03, 0x00, 0x00, 0x00]) == .ack)
    #expect(tag.storedPage(0x28) == (try hex("03 00 00 BD")))
    for page in 16...19 {
        _ = tag.activate()
        #expect(tag.write(page, [9, 9, 9, 9]) == .nak(0x00), "page \(page)")
    }
    _ = tag.activate()
    #expect(tag.write(20, [9, 9, 9, 9]) == .ack)
    #expect(tag.write(0x27, [9, 9, 9, 9]) == .ack)
    #expect(tag.write(0x28, [0x00, 0x08, 0x00, 0x00]) == .ack)  // LOCK3 b3: pages 38-39
    #expect(tag.write(0x27, [9, 9, 9, 9]) == .nak(0x00))
}

@Test func dynamicBlockLockFreezesPairsOfLockBits() throws {
    let tag = try activeTag(.ntag213)
    #expect(tag.write(0x28, [0x00, 0x00, 0x01, 0x00]) == .ack)
    #expect(tag.write(0x28, [0x0F, 0x00, 0x00, 0x00]) == .ack)
    #expect(tag.storedPage(0x28) == (try hex("0C 00 01 BD")))
    #expect(tag.write(16, [1, 1, 1, 1]) == .ack)
    #expect(tag.write(20, [1, 1, 1, 1]) == .nak(0x00))
}

@Test(arguments: [
    (ChipModel.ntag213, false, "FF 0F 3F BD"), (.ntag213, true, "FF FF FF BD"),
    (.ntag215, false, "FF 00 0F BD"), (.ntag216, false, "FF 3F 7F BD"),
])
func dynamicLockRFUIBitsFollowSwitch(chip: ChipModel, storeRFUI: Bool, expected: String) throws {
    var configuration = EmulatorConfiguration()
    configuration.storeRFUILockBits = storeRFUI
    let tag = try activeTag(chip, configuration: configuration)
    let page = try #require(chip.dynamicLockPage)
    #expect(tag.write(page, [0xFF, 0xFF, 0xFF, 0xFF]) == .ack)
    #expect(tag.storedPage(page) == (try hex(expected)))
    _ = tag.activate()
    #expect(tag.write(chip.lastUserPage, [1, 1, 1, 1]) == .nak(0x00))
}

@Test func ntag215DynamicLockCovers16PagesPerBit() throws {
    let tag = try activeTag(.ntag215)
    #expect(tag.write(0x82, [0x01, 0x00, 0x00, 0x00]) == .ack)
    _ = tag.activate()
    #expect(tag.write(31, [1, 1, 1, 1]) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.write(32, [1, 1, 1, 1]) == .ack)
}

@Test func lockBitsCanWaitForNextActivation() throws {
    var configuration = EmulatorConfiguration()
    configuration.lockActivation = .nextActivation
    let tag = try activeTag(.ntag213, configuration: configuration)
    #expect(tag.write(2, [0, 0, 0x10, 0x00]) == .ack)
    #expect(tag.write(4, [1, 2, 3, 4]) == .ack)
    tag.reselect()
    #expect(tag.write(4, [5, 6, 7, 8]) == .nak(0x00))
    #expect(tag.storedPage(4) == [1, 2, 3, 4])
}

@Test func unknownCommandIsNAK0OrSilence() throws {
    let tag = try activeTag()
    #expect(tag.exchange([0x1A, 0x00]) == .nak(0x00))
    #expect(tag.state == .idle)
    var configuration = EmulatorConfiguration()
    configuration.unknownCommandAnswer = .silence
    let quiet = try activeTag(configuration: configuration)
    #expect(quiet.exchange([0xC2, 0xFF]) == .silence)
    #expect(quiet.state == .idle)
    #expect(quiet.exchange([0x60]) == .silence)
}

@Test func nakDropsToHaltWhenWokenFromHalt() throws {
    let tag = try activeTag()
    tag.reselect()
    #expect(tag.exchange([0x30, 0xFF]) == .nak(0x00))
    #expect(tag.state == .halt)
}

@Test(
    arguments: [
        [0x60, 0x00], [0x3C, 0x01], [0x3C], [0x30], [0x3A, 0x00], [0x1B, 0xFF, 0xFF, 0xFF], [0x39, 0x02, 0x00],
    ] as [[UInt8]])
func malformedKnownCommandsAreNAK0(command: [UInt8]) throws {
    let tag = try activeTag(.ntag215)
    #expect(tag.exchange(command) == .nak(0x00))
    #expect(tag.state == .idle)
}

@Test func haltThroughExchangeIsSilentAndNeedsWUPA() throws {
    let tag = try activeTag()
    #expect(tag.exchange([0x50, 0x00]) == .silence)
    #expect(tag.state == .halt)
    #expect(tag.exchange([0x30, 0x00]) == .silence)
    #expect(tag.receiveRaw([0x26], lastByteBits: 7) == .silence)
    #expect(tag.activate() != nil)
    #expect(tag.readPages(0) != nil)
}

@Test func ultralightEV1Has16StaticallyLockablePagesAndNoLockPage() throws {
    let tag = try activeTag(.mf0ul11)
    #expect(tag.write(2, [0, 0, 0x00, 0x80]) == .ack)  // L15
    #expect(tag.write(15, [1, 1, 1, 1]) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.write(14, [1, 1, 1, 1]) == .ack)
    #expect(tag.write(0x10, [0x00, 0x00, 0x00, 0x04]) == .ack)  // CFG0 AUTH0 = 04
    tag.reselect()
    #expect(tag.write(0x05, [1, 1, 1, 1]) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.exchange([0x1B, 0xFF, 0xFF, 0xFF, 0xFF]) == .data([0x00, 0x00]))
    #expect(tag.write(0x05, [1, 1, 1, 1]) == .ack)
}
