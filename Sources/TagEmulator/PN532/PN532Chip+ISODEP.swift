import NFCTags

/// The PN532's ISO/IEC 14443-4 (ISO-DEP) initiator for Type 4 targets (`docs/reference/type4.md` §6): automatic
/// RATS at activation, whole APDUs through InDataExchange with the chip's own block protocol, and the
/// host-link chaining of long InDataExchange data with the MI bit.
///
/// ```
/// InListPassiveTarget  D5 4B 01 01 03 44 20 07 <UID> 06 77 77 71 02 80    ATS with TL, fAutomaticRATS on
/// InDataExchange       D4 40 01 <C-APDU>  ->  D5 41 00 <R-APDU SW1 SW2>
///   host MI            D4 40 41 <part>    ->  D5 41 00                   more command parts follow
///   chip MI            D5 41 40 <part>    <-  D4 40 01                   the host pulls the rest
/// ```
///
/// The air side is the tag's APDU face (`Type4Emulator.exchange`): the chip chains I-blocks to the card's
/// FSC, pulls chained answers with R(ACK) and answers S(WTX) itself, so the host sees only whole APDUs, and
/// the tag's `ISODEPTiming` counts those blocks' airtime. With fAutomaticRATS off (nfcpy) a Type 4 tag
/// stays at layer 3 and the host runs ISO-DEP through InCommunicateThru (`TagEndpoint.receiveRaw`).
extension PN532Chip {
    /// Whether the chip sends RATS to an ISO-DEP target at activation (SetParameters bit 4, fAutomaticRATS).
    public var automaticRATS: Bool { parameterFlags & 0x10 != 0 }

    /// Activates `tag` as InListPassiveTarget and InSelect do: with RATS for an ISO-DEP tag when
    /// fAutomaticRATS is on, else at layer 3 only (WUPA, anticollision, SELECT).
    func activate(_ tag: any TagEndpoint) -> DetectedTag? {
        if !automaticRATS, let isoDEP = tag as? any ISODEPActivatable { return isoDEP.activateWithoutRATS() }
        return tag.activate()
    }

    /// The InAutoPoll activation of `tag` for the requested `types`: `20` (ISO/IEC 14443-4A: RATS and
    /// the ATS) for an ISO-DEP tag when asked for, else `10` at layer 3.
    ///
    /// - Returns: the target type and the activation, or `nil` when the tag did not answer.
    func autoPollActivation(of tag: any TagEndpoint, types: [UInt8]) -> (UInt8, DetectedTag)? {
        guard let isoDEP = tag as? any ISODEPActivatable else { return tag.activate().map { (0x10, $0) } }
        if types.contains(0x20) { return tag.activate().map { (0x20, $0) } }
        return isoDEP.activateWithoutRATS().map { (0x10, $0) }
    }

    /// InDataExchange to an ISO-DEP target: `part` is (a piece of) a C-APDU. With MI in `tg` the chip
    /// keeps it and answers status `00` (the card R(ACK)s the chained I-block); the last piece sends the
    /// whole APDU. The R-APDU comes back after status `00`, in pieces of `maximumDataIn` with MI set on
    /// all but the last; silence (a removed, torn or mute tag) is status `01`.
    func dataExchangeISODEP(tg: UInt8, _ part: [UInt8], tag: any TagEndpoint) -> [UInt8] {
        chainedCommand += part
        if tg & 0x40 != 0 { return [0x00] }
        let command = chainedCommand
        chainedCommand = []
        lastExchangeUID = tag.uid
        guard case .data(let answer) = tag.exchange(command) else { return [0x01] }
        pendingDataIn = answer
        return nextDataIn()
    }

    /// The next piece of a long InDataExchange answer: status `40` (MI) while more follows, else `00`.
    func nextDataIn() -> [UInt8] {
        let piece = Array(pendingDataIn.prefix(max(1, maximumDataIn)))
        pendingDataIn.removeFirst(piece.count)
        return [pendingDataIn.isEmpty ? 0x00 : 0x40] + piece
    }

    /// InATR `50 Tg Next [NFCID3i] [Gi]`: an NFC-DEP ATR_REQ to the target. No emulated tag speaks
    /// NFC-DEP (ISO-DEP is not NFC-DEP), so a listed target gives no ATR_RES: status `01` (timeout);
    /// without a listed target the context is wrong (`27`). The tag's state is left as it is.
    func attributeRequest(_ data: [UInt8]) -> [UInt8] {
        guard selected != nil, field.current != nil, fieldOn else { return [0x27] }
        return [0x01]
    }
}

/// A tag that can stop after ISO/IEC 14443-3 activation, before RATS (an ISO-DEP tag facing a reader
/// whose automatic RATS is off); the host then sends RATS itself as a raw frame.
public protocol ISODEPActivatable: TagEndpoint {
    /// WUPA, anticollision and SELECT at every cascade level, no RATS: the tag waits for RATS at layer 3.
    ///
    /// - Returns: the detection data without an ATS, or `nil` when the tag does not answer.
    func activateWithoutRATS() -> DetectedTag?
}
