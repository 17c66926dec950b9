import NFCTags

extension PCSCReader {
    /// Tells the tag's family by the ATR the reader built for it (`pcsc-vpcd.md` §10.1) and reads what
    /// the pipeline's family detection needs, on a freshly connected card.
    ///
    /// ```
    /// 3B 8F 80 01 80 4F 0C A0 00 00 03 06 …   storage card (Type 2): UID (FF CA 00 00 00); SAK 00
    /// 3B 8n 80 01 <historical bytes> TCK      ISO 14443-4 (Type 4): UID, then the ATS (FF CA 01 00 00,
    ///                                         none when the reader refuses it); SAK 20 (Type4ATR)
    /// ```
    ///
    /// An ATR that cannot be read, or is neither form, is treated as a storage card as before. Type 4
    /// needs nothing from the reader style: every style passes C-APDUs (CLA ≠ `FF`) unchanged.
    ///
    /// - Returns: the card's transceiver (ISO-DEP mode for a Type 4 tag) and its detection record.
    /// - Throws: `TransportError` when the card left or did not answer `FF CA`.
    static func detect(_ card: PCSCCard, style: PCSCReaderStyle) throws(TransportError) -> (
        PCSCTransceiver, DetectedTag
    ) {
        let atr: [UInt8]
        do {
            atr = try card.answerToReset()
        } catch {
            if error.meansTagLeft { throw .tagLost }
            atr = []
        }
        guard let isoDEP = Type4ATR(atr) else {
            let transceiver = PCSCTransceiver(card: card, style: style)
            return (transceiver, DetectedTag(uid: try transceiver.readUID()))
        }
        let transceiver = PCSCTransceiver(card: card, style: style, isISODEP: true)
        let uid = try transceiver.readUID()
        return (transceiver, isoDEP.detectedTag(uid: uid, ats: try transceiver.readATS()))
    }
}
