import NFCTags
import TagEmulator
import Testing

/// The vpcd card presenting an ISO 15693 (Type 5) tag the way a PC/SC reader with a 15693 front end does,
/// per style (`docs/reference/type5.md` §3.1–3.4, §3.6).
private let uid: [UInt8] = [0xE0, 0x04, 0x01, 0x08, 0x12, 0x34, 0x56, 0x78]

/// A powered card of `style` holding a factory-state ICODE SLIX2.
private func type5Card(style: VPCDReaderStyle) -> (VPCDCard, Type5Emulator) {
    let tag = Type5Emulator(chip: .icodeSLIX2, uid: uid)
    return (poweredCard(tag, style: style), tag)
}

private func send(_ card: VPCDCard, _ text: String) throws -> [UInt8] {
    card.handle(.apdu(try hex(text))) ?? []
}

@Test(arguments: VPCDReaderStyle.allCases)
func theATRIsThe15693StorageCardATRAndTheUIDOrderFollowsTheStyle(style: VPCDReaderStyle) throws {
    let (card, _) = type5Card(style: style)
    #expect(card.isISO15693 && !card.isISODEP)
    #expect(card.handle(.atrRequest) == (try hex("3B 8F 80 01 80 4F 0C A0 00 00 03 06 0B 00 14 00 00 00 00 77")))
    let expected = style == .omnikey || style == .storage ? uid : uid.reversed()
    #expect(try send(card, "FF CA 00 00 00") == expected + [0x90, 0x00])
}

@Test func anACSStyleReadsAndWritesBlocksWithTheBlockNumberInP2() throws {
    let (card, tag) = type5Card(style: .acr1552u)
    #expect(try send(card, "FF B0 00 00 00") == (try hex("E1 40 28 01 90 00")))
    #expect(try send(card, "FF B0 00 00 04") == (try hex("E1 40 28 01 90 00")), "Le = block size")
    #expect(try send(card, "FF B0 00 00 08") == (try hex("6C 04")), "Le ≠ block size")
    #expect(try send(card, "FF D6 00 01 04 03 02 D0 00") == (try hex("90 00")))
    #expect(Array(tag.memory[4..<8]) == (try hex("03 02 D0 00")))
    #expect(try send(card, "FF B0 01 00 00") == (try hex("6B 00")), "the other convention is refused")
    #expect(try send(card, "FF D6 00 01 03 03 02 D0") == (try hex("63 00")), "a short block: the tag's 01 02")
    #expect(try send(card, "FF B0 00 50 00") == (try hex("63 00")), "past the end: the tag's 01 10, not visible")
}

@Test func storageAndOmnikeyStylesPutTheBlockNumberInP1() throws {
    for style in [VPCDReaderStyle.storage, .omnikey] {
        let (card, tag) = type5Card(style: style)
        #expect(try send(card, "FF D6 02 00 04 11 22 33 44") == (try hex("90 00")))
        #expect(Array(tag.memory[8..<12]) == [0x11, 0x22, 0x33, 0x44])
        #expect(try send(card, "FF B0 02 00 00") == (try hex("11 22 33 44 90 00")))
        #expect(try send(card, "FF B0 00 02 00") == (try hex("6B 00")), "\(style): P2 must be 00")
    }
}

@Test func theStorageStyleHasNoTransparentExchange() throws {
    let (card, _) = type5Card(style: .storage)
    #expect(try send(card, "FF C2 00 00 02 81 00") == (try hex("6A 81")))
}

@Test func aTransparentWriteTimesOutWithoutTheTimerAndSucceedsWithIt() throws {
    let (card, tag) = type5Card(style: .acr1552u)
    #expect(try send(card, "FF C2 00 00 02 81 00") == (try hex("C0 03 00 90 00 90 00")))
    #expect(try send(card, "FF C2 00 02 04 8F 02 02 03") == (try hex("C0 03 00 90 00 8F 01 00 90 00")))
    // Get System Information, non-addressed: info 0F, UID air order, DSFID, AFI, 80 blocks of 4, IC reference 01.
    #expect(
        try send(card, "FF C2 00 01 04 95 02 02 2B")
            == (try hex(
                "C0 03 00 90 00 92 01 00 96 02 00 00 97 0F 00 0F 78 56 34 12 08 01 04 E0 00 00 4F 03 01 90 00")))
    // Write Single Block 1 at the reader's default timer: the tag programs, the reader gives up (DO #1).
    #expect(try send(card, "FF C2 00 01 09 95 07 02 21 01 AA BB CC DD") == (try hex("C0 03 01 64 01 90 00")))
    #expect(Array(tag.memory[4..<8]) == [0xAA, 0xBB, 0xCC, 0xDD], "the write happened; only its answer was lost")
    // With the timer object (20 ms, LSB first) first, the 95 object is DO #2 and the answer arrives.
    #expect(
        try send(card, "FF C2 00 01 10 5F 46 04 20 4E 00 00 95 07 02 21 02 01 02 03 04")
            == (try hex("C0 03 00 90 00 92 01 00 96 02 00 00 97 01 00 90 00")))
    // The timer holds for the session: Lock Block of block 2 answers too; its error comes back inside 97.
    #expect(
        try send(card, "FF C2 00 01 05 95 03 02 22 02")
            == (try hex("C0 03 00 90 00 92 01 00 96 02 00 00 97 01 00 90 00")))
    #expect(tag.locked[2])
    #expect(
        try send(card, "FF C2 00 01 09 95 07 02 21 02 00 00 00 00")
            == (try hex("C0 03 00 90 00 92 01 00 96 02 00 00 97 02 01 12 90 00")), "a locked block: 01 12")
    #expect(try send(card, "FF C2 00 00 02 82 00") == (try hex("C0 03 00 90 00 90 00")))
    #expect(try send(card, "FF C2 00 01 04 95 02 02 2B") == (try hex("C0 03 01 69 85 90 00")), "session ended")
}
