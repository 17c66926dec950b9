import NDEF
import NFCTags

/// A FeliCa (NFC Forum Type 3) card through a PC/SC reader whose direct transmit carries FeliCa frames
/// (`FeliCaDirectTransmit`: the ACR122U's PN532 InDataExchange, the ACR1252U's bare frame).
///
/// ```
/// acr122u   06 00 12 FC 01 00 → FF 00 00 00 09 D4 40 01 06 00 12 FC 01 00 → D5 41 00 14 01 <IDm PMm SC> 90 00
/// acr1252u  06 00 12 FC 01 00 → FF 00 00 00 06 06 00 12 FC 01 00          → 14 01 <IDm PMm SC> 90 00
/// ```
///
/// Detection polls `12FC` (RC `01`, the NDEF system, whose IDm the ledger records) and only when nothing
/// answers `FFFF`, as the libnfc backend does (`docs/pn532.md`). Silence is `.noAnswer`; the job re-reads
/// the IDm (`FF CA`) to tell a silent card from one that left.
extension PCSCTransceiver {
    /// Sends one FeliCa frame (LEN first) and returns the card's frame, LEN first.
    ///
    /// A Write Without Encryption (`08`) marks the IDm for a check after the body.
    /// - Throws: `.noAnswer` for silence; `.transport` when the style has no FeliCa path or the reader failed;
    ///   `.tagLost` when the card left.
    func transceiveFeliCa(_ frame: [UInt8]) throws(TransportError) -> [UInt8] {
        guard let wrapping = style.feliCaDirectTransmit else { throw .transport(Self.noFeliCaPath(style)) }
        guard let apdu = wrapping.apdu(frame) else { throw .invalidResponse("FeliCa frame too long for an APDU") }
        if frame.count > 1, frame[1] == 0x08 { uidCheckDue = true }
        switch wrapping.answer(try transmit(apdu)) {
        case .frame(let answer): return answer
        case .silence: throw .noAnswer
        case .failed(let detail): throw .transport(detail)
        }
    }

    /// Polls `12FC`, then `FFFF` when no NDEF system answers: the activation of the card in the field.
    ///
    /// - Throws: `.tagLost` when neither Polling is answered (the card left between the ATR and now).
    func pollFeliCa() throws(TransportError) -> FeliCaActivation {
        for systemCode: UInt16 in [0x12FC, 0xFFFF] {
            do {
                return try FeliCaCommand.parsePolling(transceiveFeliCa(FeliCaCommand.polling(systemCode: systemCode)))
            } catch .noAnswer {
                continue
            }
        }
        throw .tagLost
    }

    /// The error for a FeliCa card on a reader style without a FeliCa path: which styles would work.
    static func noFeliCaPath(_ style: PCSCReaderStyle) -> String {
        "this PC/SC reader (style \(style)) cannot send FeliCa frames; use an ACR122U or ACR1252U "
            + "(?style=acr122u or acr1252u) or a PN532 through nfc:"
    }
}
