import NFCTags

/// How the card presents an ISO-DEP (ISO/IEC 14443-4, NFC Forum Type 4) tag, as a PC/SC part 3 reader
/// does (`docs/reference/pcsc.md` §10.1, §10.2; `docs/reference/type4.md` §1.9).
///
/// ```
/// ATR              3B 8n 80 01 h1 … hn TCK   historical bytes of the ATS, TCK = XOR of T0 … hn
///                  NTAG 424 DNA (ATS 06 77 77 71 02 80): 3B 81 80 01 80 80
/// FF CA 00 00 00   UID 90 00
/// FF CA 01 00 00   ATS (TL first) 90 00
/// FF B0 / FF D6    63 00: storage-card reads and writes are not for an ISO-DEP card
/// CLA ≠ FF         the C-APDU to the tag unchanged; its R-APDU with its own status word; silence 63 00
/// ```
///
/// The reader runs the ISO-DEP block layer, so an APDU is one `exchange` on the tag's APDU face, whose
/// modelled airtime (`ISODEPTiming`) the tag adds up as a Type 2 tag does for its frames. Raw paths
/// (ACR122U InCommunicateThru, ACR1252U transparent exchange) put their bytes on the air as they are
/// (`rawFrame`); ACR122U InDataExchange carries an APDU over ISO-DEP like a passed-through APDU.
extension VPCDCard {
    /// Whether the tag in the field activated as an ISO-DEP tag (SAK bit 6, `20h`).
    public var isISODEP: Bool { activation.map { $0.sak & 0x20 != 0 } ?? false }

    /// The ATR the reader builds for the tag in the field: the storage-card ATR (`atr`) for a Type 2
    /// tag, `3B 8n 80 01 <historical bytes> TCK` for an ISO-DEP tag, the ISO 15693 storage-card ATR
    /// (`Type5ATR`) for a VICC, the FeliCa ATR (`FeliCaATR`) for a FeliCa card.
    public var answerToReset: [UInt8] {
        if isISO15693, let uid = activation?.uid { return Type5ATR.bytes(uid: uid) }
        if isFeliCa { return FeliCaATR.bytes() }
        guard isISODEP, let ats = activation?.ats else { return Self.atr }
        return Self.isoDEPATR(ats: ats)
    }

    /// The PC/SC part 3 ATR of an ISO 14443-4 type A card with answer to select `ats` (TL first): its
    /// historical bytes (at most 15) between `3B 8n 80 01` and TCK.
    public static func isoDEPATR(ats: [UInt8]) -> [UInt8] {
        let historical = Type4ATS(ats)?.historicalBytes ?? []
        return Type4ATR.bytes(historicalBytes: Array(historical.prefix(15)))
    }

    /// A C-APDU (CLA ≠ `FF`) for the ISO-DEP tag: answered with the tag's R-APDU unchanged, or `63 00`
    /// when the tag is not selected or stays silent (the reader's "operation failed").
    func passThrough(_ apdu: [UInt8]) -> [UInt8] {
        countISO()
        guard let tag, selected, case .data(let answer) = tag.exchange(apdu), answer.count >= 2 else {
            return StatusWord.failed
        }
        return answer
    }

    /// ACR122U InDataExchange to an ISO-DEP tag: one C-APDU on the tag's APDU face (silence when the tag
    /// is not selected).
    func dataExchange(_ apdu: [UInt8]) -> TagAnswer {
        guard let tag, selected else { return .silence }
        return tag.exchange(apdu)
    }

    /// One frame as a raw path puts it on the air for an ISO-DEP tag: CRC_A added, the tag's answer
    /// checked and stripped of its CRC_A. Type 2 commands are not ISO-DEP blocks, so the tag is silent.
    func rawFrame(_ command: [UInt8], to tag: any TagEndpoint) -> TagAnswer {
        switch tag.receiveRaw(CRCA.appending(to: command), lastByteBits: 8) {
        case .data(let frame) where frame.count > 2 && CRCA.isValid(frame): .data(Array(frame.dropLast(2)))
        case .data, .silence: .silence
        case .ack: .ack
        case .nak(let code): .nak(code)
        }
    }
}
