import NFCTags

/// How the card presents a FeliCa (NFC Forum Type 3) card, as a PC/SC reader with a FeliCa front end does
/// (`docs/reference/pcsc.md` §10.1, §10.3–10.4; `docs/reference/type3.md` §2.3). The framing is
/// `FeliCaDirectTransmit`'s, shared with the host; the card's behaviour stays in its model (`FeliCaEndpoint`).
///
/// ```
/// ATR             3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42 (FeliCaATR, every style)
/// FF CA 00 00 00  IDm (8 bytes) 90 00
/// acr122u         FF 00 00 00 Lc D4 40 01 <frame> → D5 41 00 <answer> 90 00 | silence D5 41 01 90 00
/// acr1252u        FF 00 00 00 Lc <frame>          → <answer> 90 00          | silence 63 00
/// acr1552u, omnikey, storage, plain: FF 00 → 6A 81 (as any unknown pseudo-APDU); FF C2 exchange → C0 03 01 6A 81
/// FF B0 / FF D6   63 00: no storage-card blocks on a FeliCa card
/// ```
///
/// A Polling frame (`06 00 SC SC RC TSN`) goes to the card's `activate(polling:)`: it answers only for a
/// system it has, and is not counted as an exchange, as a reader's polling is not. Any other frame is one
/// exchange; a FeliCa card has no selected state, so silence leaves it answering the next frame.
extension VPCDCard {
    /// Whether the tag in the field activated as a FeliCa card (a Polling answer).
    public var isFeliCa: Bool { activation?.felica != nil }

    /// The direct transmit APDUs of a FeliCa card: the style's framing; other `FF 00` APDUs (LED, firmware)
    /// as for any tag; `6A 81` on a style without a FeliCa path.
    func feliCaDirectTransmit(_ apdu: [UInt8]) -> [UInt8] {
        guard let wrapping = style.feliCaDirectTransmit else {
            statisticsUnsupported()
            return StatusWord.notSupported
        }
        guard let frame = wrapping.frame(of: apdu) else { return pseudoCommand(apdu) }
        countRaw()
        return wrapping.reply(feliCaFrame(frame).map { .frame($0) } ?? .silence)
    }

    /// One FeliCa frame to the card: its answer, or `nil` for silence (no card, a bad frame, no such system).
    func feliCaFrame(_ frame: [UInt8]) -> [UInt8]? {
        guard let tag else { return nil }
        if frame.count == 6, frame[0] == 0x06, frame[1] == 0x00, let card = tag as? any FeliCaEndpoint {
            return card.activate(polling: frame)
        }
        guard case .data(let answer) = tag.exchange(frame) else { return nil }
        return answer
    }
}

extension VPCDReaderStyle {
    /// How the style's direct transmit carries a FeliCa frame, `nil` when the reader has none.
    public var feliCaDirectTransmit: FeliCaDirectTransmit? { FeliCaDirectTransmit(readerStyle: rawValue) }
}
