import NFCTags

/// An ISO-DEP (NFC Forum Type 4) tag through a PC/SC reader (`docs/reference/pcsc.md` §10.1, §10.2, §10.6).
///
/// The reader runs ISO/IEC 14443-4 itself, so a C-APDU (CLA ≠ `FF`) goes to `SCardTransmit` unchanged
/// and the R-APDU comes back with the card's own status word, which `Type4Tag` judges. Only the reader's
/// own failure is taken out: a bare `63 00` is the reader's "operation failed" (the card did not answer,
/// or left), reported as silence so the job re-reads the UID and restarts the tag (§10.2).
extension PCSCTransceiver {
    /// Sends one C-APDU unchanged and returns the R-APDU, status word included.
    ///
    /// An UPDATE BINARY (`D6`, `D7`) marks the UID for a check after the body, as a Type 2 WRITE does.
    /// - Throws: `.noAnswer` for the reader's `63 00`; `.tagLost` when the card left; `.invalidResponse`
    ///   for an answer shorter than a status word.
    func transmitAPDU(_ apdu: [UInt8]) throws(TransportError) -> [UInt8] {
        guard apdu.count >= 4 else { throw .invalidResponse("a C-APDU has at least 4 bytes") }
        if apdu[1] == 0xD6 || apdu[1] == 0xD7 { uidCheckDue = true }
        let reply = try transmit(apdu)
        guard reply.count >= 2 else { throw .invalidResponse("APDU answer shorter than a status word") }
        if reply == [0x63, 0x00] { throw .noAnswer }
        return reply
    }

    /// Reads the ATS with the GET DATA pseudo-APDU `FF CA 01 00 00` (ISO 14443-4 type A only).
    ///
    /// - Returns: the ATS, TL first (a reader that leaves TL out gets it put back), or empty when the
    ///   reader does not answer the request (`6A 81`, any other status word).
    /// - Throws: `TransportError` when the card left or the link failed.
    func readATS() throws(TransportError) -> [UInt8] {
        let reply = try transmit([0xFF, 0xCA, 0x01, 0x00, 0x00])
        guard reply.count > 2, reply.suffix(2) == [0x90, 0x00] else { return [] }
        let ats = Array(reply.dropLast(2))
        if Type4ATS(ats) != nil { return ats }
        let withLength = [UInt8(truncatingIfNeeded: ats.count + 1)] + ats
        return Type4ATS(withLength) != nil ? withLength : []
    }
}
