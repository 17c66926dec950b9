import NFCTags
import TagEmulator
import Testing

/// The vpcd card over the real chip model: password state and the factory image through pseudo-APDUs.
private func chipCard() throws -> VPCDCard {
    let card = VPCDCard(style: .acr122u)
    card.insert(try NTAGEmulator(chip: .ntag213, uid: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]))
    _ = card.handle(.powerOn)
    return card
}

private func send(_ card: VPCDCard, _ apdu: [UInt8]) -> [UInt8] { card.handle(.apdu(apdu)) ?? [] }

private func direct(_ card: VPCDCard, _ command: [UInt8]) -> [UInt8] {
    send(card, [0xFF, 0x00, 0x00, 0x00, UInt8(command.count + 2), 0xD4, 0x42] + command)
}

/// Protects every page from 04 (AUTH0 = 04, PROT = 1) with password 11 22 33 44, PACK AB CD.
private func protect(_ card: VPCDCard) {
    for (page, data) in [
        (0x2B, [0x11, 0x22, 0x33, 0x44]), (0x2C, [0xAB, 0xCD, 0x00, 0x00]),
        (0x2A, [0x80, 0x00, 0x00, 0x00]), (0x29, [0x04, 0x00, 0x00, 0x04]),
    ] as [(UInt8, [UInt8])] {
        #expect(send(card, [0xFF, 0xD6, 0x00, page, 0x04] + data) == [0x90, 0x00], "page \(page)")
    }
}

@Test(arguments: [VPCDMessage.powerOff, .reset])
func realChipForgetsPasswordAuthenticationOnEveryPowerEvent(event: VPCDMessage) throws {
    let card = try chipCard()
    protect(card)
    #expect(card.handle(.reset) == nil)  // AUTH0 and PROT act from the next activation
    #expect(send(card, [0xFF, 0xB0, 0x00, 0x04, 0x10]) == [0x63, 0x00])
    #expect(card.handle(.reset) == nil)
    #expect(direct(card, [0x1B, 0x11, 0x22, 0x33, 0x44]) == [0xD5, 0x43, 0x00, 0xAB, 0xCD, 0x90, 0x00])
    #expect(send(card, [0xFF, 0xB0, 0x00, 0x04, 0x10]).suffix(2) == [0x90, 0x00])
    _ = card.handle(event)
    if event == .powerOff { _ = card.handle(.powerOn) }
    #expect(send(card, [0xFF, 0xB0, 0x00, 0x04, 0x10]) == [0x63, 0x00])
}

@Test func realChipAnswersGetVersionSignatureAndFactoryPagesThroughDirectTransmit() throws {
    let card = try chipCard()
    #expect(direct(card, [0x60]) == [0xD5, 0x43, 0x00] + ChipModel.ntag213.version + [0x90, 0x00])
    let signature = direct(card, [0x3C, 0x00])
    #expect(signature.count == 3 + 32 + 2)
    #expect(
        send(card, [0xFF, 0xB0, 0x00, 0x00, 0x10]).prefix(12)
            == [0x04, 0xA1, 0xB2, 0x9F, 0xC3, 0xD4, 0xE5, 0xF6, 0x04, 0x48, 0x00, 0x00])
    #expect(send(card, [0xFF, 0xCA, 0x00, 0x00, 0x00]) == [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6, 0x90, 0x00])
    // Pages 0 and 1 are factory-locked: WRITE is NAKed → 63 00.
    #expect(send(card, [0xFF, 0xD6, 0x00, 0x01, 0x04, 1, 2, 3, 4]) == [0x63, 0x00])
}
