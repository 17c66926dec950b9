import NFCTags
import TagEmulator
import Testing

/// The vpcd card presenting a FeliCa (Type 3) card the way a PC/SC reader with a FeliCa front end does, per
/// style (`docs/reference/pcsc.md` §10.1, §10.3–10.4; `docs/reference/type3.md` §2.3).
private let idm: [UInt8] = [0x01, 0x2E, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
private let idmHex = "01 2E 11 22 33 44 55 66"
private let liteSPMm = "00 F1 00 00 00 01 43 00"

/// A powered card of `style` holding a formatted Lite-S (or an unformatted one: no NDEF system).
private func feliCaCard(style: VPCDReaderStyle, unformatted: Bool = false) -> (VPCDCard, FeliCaEmulator) {
    var faults = TagFaults()
    faults.unformatted = unformatted
    let tag = FeliCaEmulator(idm: idm, faults: faults)
    return (poweredCard(tag, style: style), tag)
}

private func send(_ card: VPCDCard, _ text: String) throws -> [UInt8] {
    card.handle(.apdu(try hex(text))) ?? []
}

@Test(arguments: VPCDReaderStyle.allCases)
func aFeliCaCardShowsTheFeliCaATRAndItsIDmOnEveryStyle(style: VPCDReaderStyle) throws {
    let (card, _) = feliCaCard(style: style)
    #expect(card.isFeliCa && !card.isISODEP && !card.isISO15693)
    #expect(card.handle(.atrRequest) == (try hex("3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42")))
    #expect(try send(card, "FF CA 00 00 00") == idm + [0x90, 0x00])
    #expect(try send(card, "FF CA 00 00 04") == (try hex("6C 08")))
    #expect(try send(card, "FF B0 00 00 10") == (try hex("63 00")), "no storage-card blocks on a FeliCa card")
}

@Test func anACR122UPollsReadsAndWritesByInDataExchange() throws {
    let (card, tag) = feliCaCard(style: .acr122u)
    #expect(
        try send(card, "FF 00 00 00 09 D4 40 01 06 00 12 FC 01 00")
            == (try hex("D5 41 00 14 01 \(idmHex) \(liteSPMm) 12 FC 90 00")), "Polling 12FC, RC 01")
    #expect(
        try send(card, "FF 00 00 00 09 D4 40 01 06 00 FF FF 00 00")
            == (try hex("D5 41 00 12 01 \(idmHex) \(liteSPMm) 90 00")), "Polling FFFF, RC 00")
    #expect(tag.exchangeCount == 0, "a Polling is the activation, not an exchange")
    #expect(
        try send(card, "FF 00 00 00 13 D4 40 01 10 06 \(idmHex) 01 0B 00 01 80 00")
            == (try hex("D5 41 00 1D 07 \(idmHex) 00 00 01 10 04 01 00 0D 00 00 00 00 00 01 00 00 00 00 23 90 00")))
    let data = "00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF"
    #expect(
        try send(card, "FF 00 00 00 23 D4 40 01 20 08 \(idmHex) 01 09 00 01 80 01 \(data)")
            == (try hex("D5 41 00 0C 09 \(idmHex) 00 00 90 00")))
    #expect(tag.blocks[1] == (try hex(data)))
    #expect(
        try send(card, "FF 00 00 00 13 D4 40 01 10 06 01 2E 00 00 00 00 00 00 01 0B 00 01 80 00")
            == (try hex("D5 41 01 90 00")), "another IDm: silence")
    #expect(
        try send(card, "FF 00 00 00 13 D4 40 01 10 06 \(idmHex) 01 0B 00 01 80 01")
            == (try hex("D5 41 00 1D 07 \(idmHex) 00 00 01 00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF 90 00")),
        "silence left the card answering")
    #expect(tag.exchangeCount == 4)
    #expect(try send(card, "FF 00 40 AE 04 01 01 01 01") == (try hex("90 AE")), "LED/buzzer as for any tag")
}

@Test func aPollingReachesOnlyASystemTheCardHas() throws {
    let (card, _) = feliCaCard(style: .acr122u, unformatted: true)
    #expect(try send(card, "FF 00 00 00 09 D4 40 01 06 00 12 FC 01 00") == (try hex("D5 41 01 90 00")), "no NDEF")
    #expect(
        try send(card, "FF 00 00 00 09 D4 40 01 06 00 FF FF 01 00")
            == (try hex("D5 41 00 14 01 \(idmHex) \(liteSPMm) 88 B4 90 00")))
    #expect(try send(card, "FF 00 00 00 09 D4 40 01 06 00 FE 00 01 00") == (try hex("D5 41 01 90 00")))
}

@Test func anACR1252UCarriesTheBareFrame() throws {
    let (card, tag) = feliCaCard(style: .acr1252u)
    #expect(
        try send(card, "FF 00 00 00 06 06 00 12 FC 01 00")
            == (try hex("14 01 \(idmHex) \(liteSPMm) 12 FC 90 00")))
    #expect(
        try send(card, "FF 00 00 00 10 10 06 \(idmHex) 01 0B 00 01 80 00")
            == (try hex("1D 07 \(idmHex) 00 00 01 10 04 01 00 0D 00 00 00 00 00 01 00 00 00 00 23 90 00")))
    #expect(try send(card, "FF 00 00 00 0A 0A 04 \(idmHex)") == (try hex("63 00")), "Request Response: silence")
    #expect(tag.exchangeCount == 2)
}

@Test(arguments: [VPCDReaderStyle.acr1552u, .omnikey, .storage, .plain])
func aStyleWithoutAFeliCaPathRefusesFeliCaFrames(style: VPCDReaderStyle) throws {
    let (card, tag) = feliCaCard(style: style)
    #expect(try send(card, "FF 00 00 00 09 D4 40 01 06 00 12 FC 01 00") == (try hex("6A 81")))
    #expect(try send(card, "FF 00 00 00 06 06 00 12 FC 01 00") == (try hex("6A 81")))
    if style.hasTransparentExchange {
        #expect(try send(card, "FF C2 00 00 02 81 00") == (try hex("C0 03 00 90 00 90 00")))
        #expect(try send(card, "FF C2 00 01 08 95 06 06 00 12 FC 01 00") == (try hex("C0 03 01 6A 81 90 00")))
    }
    #expect(tag.exchangeCount == 0)
}
