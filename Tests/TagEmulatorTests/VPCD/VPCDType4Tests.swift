import NFCTags
import TagEmulator
import Testing

/// The vpcd card presenting a Type 4 (ISO-DEP) tag the way a PC/SC part 3 reader does
/// (`docs/reference/pcsc.md` §10.1, §10.2, §10.6; `docs/reference/type4.md` §1.9).
private let uid: [UInt8] = [0x04, 0x96, 0x8C, 0xAA, 0x5C, 0x5E, 0x80]

/// A small generic T4T whose CC is nfcpy's worked example, but with a 64-byte NDEF file.
private let smallGeneric = Type4EmulatedChip.generic(mapping: 0x20, ndefFileSize: 64, mle: 0x3B, mlc: 0x34)

/// A powered card of `style` holding a delivery-state Type 4 tag with `ats`.
private func type4Card(
    _ chip: Type4EmulatedChip = .ntag424, ats: [UInt8] = Type4EmulatorConfiguration.ntag424ATS,
    style: VPCDReaderStyle = .acr122u
) throws -> (VPCDCard, Type4Emulator) {
    var configuration = Type4EmulatorConfiguration()
    configuration.ats = ats
    let tag = try Type4Emulator(chip: chip, uid: uid, configuration: configuration)
    return (poweredCard(tag, style: style), tag)
}

private func send(_ card: VPCDCard, _ text: String) throws -> [UInt8] {
    card.handle(.apdu(try hex(text))) ?? []
}

/// ATS (TL first) → the ATR a part 3 reader builds: `3B 8n 80 01 <historical bytes> TCK`.
private let atrVectors: [(ats: String, atr: String)] = [
    ("06 77 77 71 02 80", "3B 81 80 01 80 80"),  // NTAG 424 DNA, data sheet Rev 3.0
    ("06 75 77 81 02 80", "3B 81 80 01 80 80"),  // older NTAG 424 DNA / DESFire ATS: same historical byte
    ("0B 78 77 71 02 06 75 77 81 02 80", "3B 86 80 01 06 75 77 81 02 80 00"),  // docs/reference/pcsc.md §10.1 example
    ("05 78 80 70 02", "3B 80 80 01 01"),  // no historical bytes
    ("02 00", "3B 80 80 01 01"),  // T0 without interface bytes
    ("04 00 C1 05", "3B 82 80 01 C1 05 C7"),
]

@Test(arguments: atrVectors)
func atrIsBuiltFromTheATSHistoricalBytesWithTCK(vector: (ats: String, atr: String)) throws {
    let ats = try hex(vector.ats)
    let atr = try hex(vector.atr)
    let (card, _) = try type4Card(ats: ats)
    #expect(card.isISODEP)
    #expect(card.handle(.atrRequest) == atr)
    #expect(VPCDCard.isoDEPATR(ats: ats) == atr)
    // The other way: the host's ATR parser finds the ATS's historical bytes, and TCK checks out.
    let parsed = try #require(Type4ATR(atr))
    #expect(parsed.historicalBytes == Type4ATS(ats)?.historicalBytes)
    #expect(atr.dropFirst().reduce(0, ^) == 0)
}

@Test func atrFollowsTheTagInTheFieldAndStaysThroughPowerOff() throws {
    let (card, _) = try type4Card()
    #expect(card.handle(.powerOff) == nil)
    #expect(card.handle(.atrRequest) == (try hex("3B 81 80 01 80 80")))
    card.insert(try NTAGEmulator(chip: .ntag213, uid: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]))
    #expect(card.handle(.powerOn) == nil)
    #expect(!card.isISODEP)
    #expect(card.handle(.atrRequest) == VPCDCard.atr)
    #expect(Type4ATR(VPCDCard.atr) == nil, "the storage-card ATR is not taken for ISO-DEP")
}

@Test(arguments: [
    ("FF CA 00 00 00", "04 96 8C AA 5C 5E 80 90 00"),
    ("FF CA 00 00 07", "04 96 8C AA 5C 5E 80 90 00"),
    ("FF CA 00 00 04", "6C 07"),
    ("FF CA 01 00 00", "06 77 77 71 02 80 90 00"),
    ("FF CA 01 00 06", "06 77 77 71 02 80 90 00"),
    ("FF CA 01 00 03", "6C 06"),
    ("FF CA 01 00 08", "06 77 77 71 02 80 62 82"),
    ("FF CA 02 00 00", "6A 81"),
    ("FF CA 01 01 00", "6B 00"),
])
func getDataAnswersUIDAndATS(apdu: String, expected: String) throws {
    let (card, tag) = try type4Card()
    #expect(try send(card, apdu) == (try hex(expected)))
    #expect(tag.exchangeCount == 0, "pseudo-APDUs are the reader's, not the tag's")
}

@Test func selectReadAndUpdateBinaryPassThroughWithTheTagsStatusWords() throws {
    let (card, tag) = try type4Card()
    #expect(try send(card, "00 A4 04 00 07 D2 76 00 00 85 01 01 00") == [0x90, 0x00])
    #expect(try send(card, "00 A4 00 0C 02 E1 03") == [0x90, 0x00])
    #expect(
        try send(card, "00 B0 00 00 17")
            == (try hex("00 17 20 01 00 00 FF 04 06 E1 04 01 00 00 00 05 06 E1 05 00 80 82 83 90 00")))
    #expect(try send(card, "00 A4 00 0C 02 E1 07") == [0x6A, 0x82], "unknown file: the tag's own 6A 82")
    #expect(try send(card, "00 A4 00 0C 02 E1 04") == [0x90, 0x00])
    let message = try hex("00 0B D1 01 07 55 04 61 2E 65 78 2F 34")
    #expect(try send(card, "00 D6 00 00 0D 00 0B D1 01 07 55 04 61 2E 65 78 2F 34") == [0x90, 0x00])
    #expect(try send(card, "00 B0 00 00 0D") == message + [0x90, 0x00])
    #expect(try send(card, "80 B0 00 00 02") == [0x6E, 0x00], "class 80: the tag's 6E 00, not the reader's")
    #expect(tag.exchangeCount == 8)
    #expect(card.statistics.isoAPDUs == 8)
    #expect(card.statistics.line.hasSuffix(" iso=8"))
}

@Test func passThroughCostsTheSameAirtimeAsTheTagsOwnExchange() throws {
    let apdus = ["00 A4 04 00 07 D2 76 00 00 85 01 01 00", "00 A4 00 0C 02 E1 04", "00 B0 00 00 40"]
    let (card, throughCard) = try type4Card()
    let direct = try Type4Emulator(chip: .ntag424, uid: uid)
    #expect(direct.activate() != nil)
    let before = throughCard.airtimeMicroseconds
    #expect(before == direct.airtimeMicroseconds, "one activation each")
    for apdu in apdus {
        let answer = try send(card, apdu)
        #expect(.data(answer) == direct.exchange(try hex(apdu)))
    }
    #expect(throughCard.airtimeMicroseconds > before)
    #expect(throughCard.airtimeMicroseconds == direct.airtimeMicroseconds)
}

@Test(arguments: ["FF B0 00 04 10", "FF B0 00 00 00", "FF D6 00 04 04 01 02 03 04"])
func storageCardCommandsAreRefusedForAnISODEPCard(apdu: String) throws {
    let (card, tag) = try type4Card()
    let image = tag.image
    #expect(try send(card, apdu) == [0x63, 0x00])
    #expect(tag.image == image)
    #expect(tag.exchangeCount == 0)
}

@Test func rawPathsPutTheirBytesOnTheAirAndInDataExchangeCarriesAnAPDU() throws {
    let (card, tag) = try type4Card()
    // InCommunicateThru READ 30 04: not an ISO-DEP block, the tag stays silent (PN532 status 01).
    #expect(try send(card, "FF 00 00 00 04 D4 42 30 04") == [0xD5, 0x43, 0x01, 0x90, 0x00])
    // InDataExchange wraps a C-APDU in ISO-DEP blocks: the tag's R-APDU comes back.
    #expect(
        try send(card, "FF 00 00 00 10 D4 40 01 00 A4 04 00 07 D2 76 00 00 85 01 01 00")
            == [0xD5, 0x41, 0x00, 0x90, 0x00, 0x90, 0x00])
    #expect(tag.exchangeCount == 1)
    // A well-formed I-block through InCommunicateThru is an APDU on the air (block number 0).
    #expect(
        try send(card, "FF 00 00 00 0A D4 42 02 00 A4 00 0C 02 E1 04")
            == [0xD5, 0x43, 0x00, 0x02, 0x90, 0x00, 0x90, 0x00])
}

@Test func acr1252uTransparentExchangeToAnISODEPCardIsSilentForType2Commands() throws {
    let (card, _) = try type4Card(style: .acr1252u)
    #expect(try send(card, "FF C2 00 00 02 81 00") == (try hex("C0 03 00 90 00 90 00")))
    #expect(try send(card, "FF C2 00 01 04 95 02 60 00") == (try hex("C0 03 01 64 01 90 00")))
}

@Test func aTagThatIsOffOrSilentGetsTheReadersFailure() throws {
    let (card, tag) = try type4Card()
    #expect(card.handle(.powerOff) == nil)
    #expect(try send(card, "00 A4 04 00 07 D2 76 00 00 85 01 01 00") == [0x63, 0x00])
    #expect(tag.exchangeCount == 0)
    #expect(card.handle(.powerOn) == nil)
    #expect(try send(card, "00 A4 04 00 07 D2 76 00 00 85 01 01 00") == [0x90, 0x00])
    tag.faults.noAnswerExchanges = [2]
    #expect(try send(card, "00 A4 00 0C 02 E1 03") == [0x63, 0x00])
    #expect(try send(card, "00 A4 00 0C 02 E1 03") == [0x90, 0x00], "still selected after one silence")
}

@Test func genericType4TagAnnouncesItsOwnCCThroughTheCard() throws {
    let (card, _) = try type4Card(smallGeneric)
    #expect(card.handle(.atrRequest) == (try hex("3B 81 80 01 80 80")))
    #expect(try send(card, "00 A4 04 00 07 D2 76 00 00 85 01 01 00") == [0x90, 0x00])
    #expect(try send(card, "00 A4 00 0C 02 E1 03") == [0x90, 0x00])
    #expect(try send(card, "00 B0 00 00 0F") == (try hex("00 0F 20 00 3B 00 34 04 06 E1 04 00 40 00 00 90 00")))
    #expect(try send(card, "90 60 00 00 00") == [0x6E, 0x00], "a generic tag answers native commands 6E 00")
}
