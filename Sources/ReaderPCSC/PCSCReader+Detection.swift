import NFCTags

extension PCSCReader {
    /// Tells the tag's family by the ATR the reader built for it (`docs/reference/pcsc.md` §10.1) and reads what
    /// the pipeline's family detection needs, on a freshly connected card.
    ///
    /// ```
    /// 3B 8F 80 01 80 4F 0C A0 00 00 03 06 …   storage card (Type 2): UID (FF CA 00 00 00); SAK 00
    /// 3B 8n 80 01 <historical bytes> TCK      ISO 14443-4 (Type 4): UID, then the ATS (FF CA 01 00 00,
    ///                                         none when the reader refuses it); SAK 20 (Type4ATR)
    /// 3B 8F … 03 06 0B NN NN 00 00 00 00 TCK  ISO 15693 (Type 5, Type5ATR): UID in display order, DSFID 00
    /// 3B 8F … 03 06 11 NN NN 00 00 00 00 TCK  FeliCa (Type 3, FeliCaATR): Polling 12FC, then FFFF, through
    ///                                         the style's direct transmit (acr122u, acr1252u; others refused)
    /// ```
    ///
    /// The ATR is the connected card's (`SCardStatus`), else the one `SCardGetStatusChange` reported
    /// (`reportedATR`). A card swapped faster than pcscd's presence check can be connected with no ATR
    /// (pcscd's power-up of the card that left failed): then the card is reset (`SCardReconnect` with
    /// `SCARD_RESET_CARD`, so pcscd reads the new card's ATR) and asked again; still none is `.tagLost`, so
    /// `poll` connects again rather than guess the family. An ATR of neither form is treated as a storage
    /// card, as before. Type 4 needs nothing from the reader style: every style passes C-APDUs (CLA ≠ `FF`)
    /// unchanged.
    ///
    /// - Returns: the card's transceiver (ISO-DEP mode for a Type 4 tag) and its detection record.
    /// A FeliCa card on a style without a FeliCa path is detected by its IDm (`FF CA`) with no PMm; each frame
    /// to it fails naming the style and the styles that would work.
    ///
    /// - Throws: `TransportError` when the card left, has no ATR yet or did not answer `FF CA`.
    static func detect(
        _ card: PCSCCard, style: PCSCReaderStyle, reportedATR: [UInt8]
    ) throws(TransportError) -> (PCSCTransceiver, DetectedTag) {
        var atr = try answerToReset(card)
        if atr.isEmpty { atr = reportedATR }
        if atr.isEmpty {
            do {
                try card.reconnect(initialization: PCSCConstant.resetCard)
            } catch {
                throw .tagLost
            }
            atr = try answerToReset(card)
        }
        guard !atr.isEmpty else { throw .tagLost }
        if FeliCaATR(atr) != nil {
            let transceiver = PCSCTransceiver(card: card, style: style, isFeliCa: true)
            guard style.feliCaDirectTransmit != nil else {
                // A card this reader cannot reach is the tag's failure, not the reader's: the line goes on (a job
                // for another family refuses its chip unsent; a Type 3 job's first frame names the style).
                return (transceiver, DetectedTag(felica: FeliCaActivation(idm: try transceiver.readUID(), pmm: [])))
            }
            return (transceiver, DetectedTag(felica: try transceiver.pollFeliCa()))
        }
        if let vicc = Type5ATR(atr) {
            let transceiver = PCSCTransceiver(card: card, style: style, isISO15693: true)
            return (transceiver, vicc.detectedTag(reportedUID: try transceiver.readUID()))
        }
        guard let isoDEP = Type4ATR(atr) else {
            let transceiver = PCSCTransceiver(card: card, style: style)
            return (transceiver, DetectedTag(uid: try transceiver.readUID()))
        }
        let transceiver = PCSCTransceiver(card: card, style: style, isISODEP: true)
        let uid = try transceiver.readUID()
        return (transceiver, isoDEP.detectedTag(uid: uid, ats: try transceiver.readATS()))
    }

    /// The connected card's ATR (`SCardStatus`); empty when the call fails for another reason than a removal.
    private static func answerToReset(_ card: PCSCCard) throws(TransportError) -> [UInt8] {
        do {
            return try card.answerToReset()
        } catch {
            if error.meansTagLeft { throw .tagLost }
            return []
        }
    }
}
