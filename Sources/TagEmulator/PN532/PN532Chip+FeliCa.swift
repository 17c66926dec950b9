import NFCTags

/// The PN532's FeliCa initiator at 212 and 424 kbit/s (`type5-type3.md` §5): InListPassiveTarget with BrTy `01`
/// or `02` sends the host's Polling payload and reports POL_RES with its LEN byte; InDataExchange (libnfc) and
/// InCommunicateThru (nfcpy) carry LEN-prefixed FeliCa frames, to which the chip adds preamble, sync and CRC.
///
/// ```
/// InListPassiveTarget  D4 4A 01 01 00 FF FF 01 00  ->  D5 4B 01 01 14 01 <IDm> <PMm> 88 B4   (none: D5 4B 00)
/// InDataExchange       D4 40 01 <LEN 06 IDm …>     ->  D5 41 00 <LEN 07 IDm …>               (silence: 01)
/// InCommunicateThru    D4 42 <LEN 06 IDm …>        ->  D5 43 00 <LEN 07 IDm …>
/// ```
/// A FeliCa card has no HALT: InDeselect leaves it answering Polling (libnfc's target list "stops after one
/// FeliCa target" for that reason).
extension PN532Chip {
    /// InListPassiveTarget at BrTy `01`/`02`: the Polling `06 <payload>` to a FeliCa tag in the field; the
    /// reply data `01 01 POL_RES`, or `nil` when no card answered.
    func listFeliCa(_ payload: [UInt8]) -> [UInt8]? {
        guard payload.count == 5, let tag = visibleTag as? any FeliCaEndpoint,
            let answer = tag.answerPolling([0x06] + payload), let detected = try? FeliCaCommand.parsePolling(answer)
        else { return nil }
        activated(tag, DetectedTag(felica: detected))
        return [0x01, 0x01] + answer
    }

    /// InDataExchange to a FeliCa target: `frame` (LEN first) goes to the card as it is; its answer follows
    /// status `00`, silence (a wrong LEN or IDm, an unsupported command, a removed tag) is status `01`.
    func dataExchangeFeliCa(_ frame: [UInt8], tag: any TagEndpoint) -> [UInt8] {
        lastExchangeUID = tag.uid
        guard case .data(let answer) = tag.exchange(frame) else { return [0x01] }
        return [0x00] + answer
    }

    /// The InAutoPoll activation of a FeliCa tag for types `11` (212 kbit/s) or `12` (424 kbit/s), with the
    /// Polling request libnfc's nfc-poll uses (`FFFF`, RC `01`): the type and POL_RES.
    func autoPollFeliCa(_ tag: any FeliCaEndpoint, types: [UInt8]) -> (UInt8, [UInt8])? {
        guard let type = types.first(where: { $0 == 0x11 || $0 == 0x12 }),
            let answer = tag.answerPolling(FeliCaCommand.polling(systemCode: 0xFFFF)),
            let detected = try? FeliCaCommand.parsePolling(answer)
        else { return nil }
        activated(tag, DetectedTag(felica: detected))
        return (type, answer)
    }
}
