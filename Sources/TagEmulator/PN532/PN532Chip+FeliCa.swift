import NFCTags

/// The PN532 as a FeliCa reader/writer (`docs/reference/type3.md` §2): InListPassiveTarget at 212 and 424 kbit/s with
/// the host's polling payload, and LEN-prefixed FeliCa frames in InDataExchange (libnfc) and InCommunicateThru
/// (nfcpy). The chip adds preamble, sync and the FeliCa CRC; the card model sees and answers bare frames.
///
/// ```
/// InListPassiveTarget  D4 4A 01 01 00 FF FF 01 00  ->  D5 4B 01 01 14 01 <IDm> <PMm> 88 B4
/// InDataExchange       D4 40 01 10 06 <IDm> 01 0B 00 01 80 00  ->  D5 41 00 1D 07 <IDm> 00 00 01 <block>
/// InCommunicateThru    D4 42 06 00 12 FC 00 00  ->  D5 43 00 12 01 <IDm> <PMm>
/// ```
///
/// A card that stays silent, or a frame whose LEN or IDm is not the card's, is status `01` (timeout), as the
/// card ignores it. A FeliCa card answers no ISO/IEC 14443-A activation, and has no HALT: InDeselect and
/// InRelease leave it in the field, visible to the next polling.
extension PN532Chip {
    /// The CIU TxMode/RxMode a FeliCa activation leaves: CRC on, speed (`001` 212, `010` 424), framing `10`.
    static func felicaMode(brTy: UInt8) -> UInt8 { brTy == 0x02 ? 0xA2 : 0x92 }

    /// InListPassiveTarget `4A MaxTg BrTy 00 SC RC TSN` for BrTy `01`/`02`: the PN532 adds LEN `06`; the answer
    /// is `NbTg Tg POL_RES` with POL_RES LEN first. `nil` = pending (infinite retries and no card answered).
    func listFeliCa(_ data: [UInt8], payload: [UInt8]) -> [UInt8]?? {
        let polling = Array(data.dropFirst(2))
        guard polling.count == 5, polling[0] == 0x00 else { return .some(nil) }
        if let tag = visibleTag as? any FeliCaEndpoint, let answer = tag.activate(polling: [0x06] + polling) {
            activatedFeliCa(tag, brTy: data[1])
            return [0x01, 0x01] + answer
        }
        if passiveActivationRetries == 0xFF {
            pendingCommand = payload
            return nil
        }
        return [0x00]
    }

    /// Makes the FeliCa `tag` target 1 and sets the CIU to FeliCa framing at its speed.
    func activatedFeliCa(_ tag: any FeliCaEndpoint, brTy: UInt8) {
        selected = tag
        selectedSpeaksISODEP = false
        registers[PN532Registers.txMode] = Self.felicaMode(brTy: brTy)
        registers[PN532Registers.rxMode] = Self.felicaMode(brTy: brTy)
    }

    /// InSelect of a listed FeliCa card: Polling `FFFF` again at the speed it was listed at (the CIU's TxMode);
    /// status `01` when it is gone.
    func reselectFeliCa(_ card: any FeliCaEndpoint) -> [UInt8] {
        guard field.current === card, fieldOn, card.activate(polling: [0x06, 0x00, 0xFF, 0xFF, 0x00, 0x00]) != nil
        else { return [0x01] }
        activatedFeliCa(card, brTy: registers[PN532Registers.txMode] & 0x70 == 0x20 ? 0x02 : 0x01)
        return [0x00]
    }

    /// One FeliCa frame (LEN first) to `tag`: status `00` and the card's frame, or `01` when it stays silent.
    func exchangeFeliCa(_ frame: [UInt8], tag: any TagEndpoint) -> [UInt8] {
        lastExchangeUID = tag.uid
        guard case .data(let answer) = tag.exchange(frame) else { return [0x01] }
        return [0x00] + answer
    }

    /// InCommunicateThru to a FeliCa card: the frame goes out only with the CIU in FeliCa framing (TxMode bits
    /// 1–0 = `10`, as the activation or nfcpy's register writes leave it) and the chip's CRC on; otherwise the
    /// card cannot decode it and stays silent.
    func communicateThruFeliCa(_ frame: [UInt8], tag: any TagEndpoint) -> [UInt8] {
        guard registers[PN532Registers.txMode] & 0x03 == 0x02, registers.transmitCRC, registers.receiveCRC else {
            lastExchangeUID = tag.uid
            return [0x01]
        }
        return exchangeFeliCa(frame, tag: tag)
    }

    /// The InAutoPoll answer for a FeliCa card when type `11` (212) or `12` (424) is asked for: Polling `FFFF`
    /// with RC `01`, as libnfc's `nfc-poll` lists it (`docs/reference/type3.md` §2.2; the exact payload is unverified).
    func autoPollFeliCa(_ tag: any FeliCaEndpoint, types: [UInt8]) -> [UInt8]? {
        guard let type = types.first(where: { $0 == 0x11 || $0 == 0x12 }),
            let answer = tag.activate(polling: [0x06, 0x00, 0xFF, 0xFF, 0x01, 0x00])
        else { return nil }
        activatedFeliCa(tag, brTy: type - 0x10)
        let target = [0x01] + answer
        return [0x01, type, UInt8(target.count)] + target
    }
}
