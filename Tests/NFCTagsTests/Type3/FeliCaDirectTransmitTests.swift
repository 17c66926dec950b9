import NDEF
import NFCTags
import Testing

/// The PC/SC part 3 FeliCa ATR and the direct-transmit wrapping of FeliCa frames, both ways
/// (`docs/reference/pcsc.md` §10.1, `docs/reference/type3.md` §2.3).
private func bytes(_ text: String) throws -> [UInt8] { try #require(Hex.bytes(text)) }

private let polling = "06 00 12 FC 01 00"
private let pollingAnswer = "14 01 01 2E 11 22 33 44 55 66 00 F1 00 00 00 01 43 00 12 FC"

@Test func theFeliCaATRIsRecognisedWithAnyCardNameAndBuiltWithTheFeliCaName() throws {
    let observed = try bytes("3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42")
    #expect(FeliCaATR.bytes() == observed)
    #expect(FeliCaATR(observed)?.cardName == [0x00, 0x3B])
    #expect(FeliCaATR(FeliCaATR.bytes(cardName: [0xF0, 0x11]))?.cardName == [0xF0, 0x11])
    var badTCK = observed
    badTCK[19] ^= 1
    #expect(FeliCaATR(badTCK) == nil)
    #expect(FeliCaATR(Type5ATR.bytes(uid: [0xE0, 0x04, 1, 2, 3, 4, 5, 6])) == nil, "a Type 5 ATR")
    #expect(Type5ATR(observed) == nil)
}

@Test func thePN532FormIsInDataExchangeWithAStatusByte() throws {
    let wrap = FeliCaDirectTransmit.pn532
    let apdu = try bytes("FF 00 00 00 09 D4 40 01 \(polling)")
    #expect(wrap.apdu(try bytes(polling)) == apdu)
    #expect(wrap.frame(of: apdu) == (try bytes(polling)))
    #expect(wrap.frame(of: try bytes("FF 00 00 00 08 D4 42 \(polling)")) == nil, "InCommunicateThru is not it")
    #expect(wrap.frame(of: try bytes("FF 00 40 AE 04 01 01 01 01")) == nil)
    let reply = try bytes("D5 41 00 \(pollingAnswer) 90 00")
    #expect(wrap.reply(.frame(try bytes(pollingAnswer))) == reply)
    #expect(wrap.answer(reply) == .frame(try bytes(pollingAnswer)))
    #expect(wrap.reply(.silence) == (try bytes("D5 41 01 90 00")))
    #expect(wrap.answer(try bytes("D5 41 01 90 00")) == .silence)
    #expect(wrap.answer(try bytes("D5 41 02 90 00")) == .failed("PN532 status 02h"))
    #expect(wrap.answer(try bytes("D5 41 00 15 01 90 00")) != .frame([0x15, 0x01]), "LEN must be the length")
    #expect(wrap.answer(try bytes("6A 81")) == .failed("status word 6A 81"))
}

@Test func theBareFormCarriesTheFrameAloneAndSilenceIs6300() throws {
    let wrap = FeliCaDirectTransmit.bareFrame
    let apdu = try bytes("FF 00 00 00 06 \(polling)")
    #expect(wrap.apdu(try bytes(polling)) == apdu)
    #expect(wrap.frame(of: apdu) == (try bytes(polling)))
    #expect(wrap.frame(of: try bytes("FF 00 00 00 07 \(polling)")) == nil, "Lc must be the data's length")
    #expect(wrap.reply(.frame(try bytes(pollingAnswer))) == (try bytes("\(pollingAnswer) 90 00")))
    #expect(wrap.answer(try bytes("\(pollingAnswer) 90 00")) == .frame(try bytes(pollingAnswer)))
    #expect(wrap.reply(.silence) == [0x63, 0x00])
    #expect(wrap.answer([0x63, 0x00]) == .silence)
    #expect(wrap.apdu([UInt8](repeating: 0, count: 256)) == nil, "longer than a short APDU")
}
