import NDEF
import NFCTags

/// The `Transceiver` of a tag seen through a PC/SC reader: Type 2 commands become pseudo-APDUs; an
/// ISO-DEP (Type 4) tag's C-APDUs go to `SCardTransmit` unchanged (`PCSCTransceiver+ISODEP.swift`).
///
/// ```
/// READ  30 pp            → FF B0 00 pp 10             (16 bytes + 90 00)
/// WRITE A2 pp d0 d1 d2 d3 → FF D6 00 pp 04 d0 d1 d2 d3 (90 00 → ACK 0A)
/// other commands          → the reader family's raw path (PCSCReaderStyle), or refused on `plain`
/// ISO-DEP: C-APDU         → C-APDU                      (R-APDU with the card's status word)
/// ISO 15693: request       → FF C2 transparent exchange, or FF B0 / FF D6 by block (+ISO15693)
/// FeliCa: LEN-first frame  → direct transmit, acr122u and acr1252u only (+FeliCa)
/// ```
///
/// `63 00` carries no NAK code: it is reported as NAK `0` ("the reader could not complete the tag
/// command"); re-activation then tells whether the tag is still there (`docs/reference/pcsc.md` §10.2). PC/SC has
/// no per-command timeout, so `timeoutMilliseconds` is not used. Not Sendable: used only on the owning
/// `PCSCReader`'s queue.
final class PCSCTransceiver: Transceiver {
    let card: PCSCCard
    let style: PCSCReaderStyle
    /// Whether the card is an ISO-DEP tag (its ATR is a part 3 ISO 14443-4 ATR): APDUs pass unchanged.
    let isISODEP: Bool
    /// Whether the card is an ISO/IEC 15693 (Type 5) tag (its ATR's standard byte is `0B`).
    let isISO15693: Bool
    /// Whether the card is a FeliCa (Type 3) card (its ATR's standard byte is `11`).
    let isFeliCa: Bool
    /// APDUs sent through this transceiver (for exchange counting).
    private(set) var apduCount = 0
    /// Whether a WRITE or a re-activation happened since the UID was last checked.
    var uidCheckDue = false
    /// Whether a transparent session is open (acr1252u, acr1552u, omnikey).
    private var sessionOpen = false

    init(
        card: PCSCCard, style: PCSCReaderStyle, isISODEP: Bool = false, isISO15693: Bool = false,
        isFeliCa: Bool = false
    ) {
        self.card = card
        self.style = style
        self.isISODEP = isISODEP
        self.isISO15693 = isISO15693
        self.isFeliCa = isFeliCa
    }

    /// Raw commands reach a Type 2 tag only through the style's raw path, a Type 5 tag only through the
    /// transparent exchange, a FeliCa card only through the style's FeliCa direct transmit; every APDU
    /// reaches an ISO-DEP tag.
    var supportsRawCommands: Bool {
        if isFeliCa { return style.feliCaDirectTransmit != nil }
        return isISODEP || (isISO15693 ? style.reachesRawISO15693 : style.hasRawPath)
    }

    var modelledAirtimeMicroseconds: Double? { nil }

    func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        guard let code = command.first else { throw .invalidResponse("empty command") }
        if isISODEP { return try transmitAPDU(command) }
        if isISO15693 { return try transceiveISO15693(command) }
        if isFeliCa { return try transceiveFeliCa(command) }
        switch code {
        case 0x30 where command.count == 2:
            try closeSession()
            let reply = try transmitChecked([0xFF, 0xB0, 0x00, command[1], 0x10])
            guard reply.count == 16 else { throw .invalidResponse("READ answered \(reply.count) bytes, expected 16") }
            return reply
        case 0xA2 where command.count == 6:
            try closeSession()
            uidCheckDue = true
            _ = try transmitChecked([0xFF, 0xD6, 0x00, command[1], 0x04] + command[2...])
            return [0x0A]
        default:
            switch style {
            case .acr122u: return try directTransmit(command)
            case .acr1252u, .acr1552u, .omnikey: return try transparentExchange(command)
            case .plain, .storage:
                throw .transport(
                    "this PC/SC reader has no raw path; command \(Hex.string(command.prefix(1)))h cannot be sent")
            }
        }
    }

    /// Reconnects with `SCARD_RESET_CARD`: the reader re-activates the tag, clearing authentication.
    ///
    /// After a removal `SCardReconnect` talks to whichever tag is now present; `PCSCReader` compares the
    /// UID afterwards.
    func reactivate() throws(TransportError) {
        sessionOpen = false
        uidCheckDue = true
        do {
            try card.reconnect(initialization: PCSCConstant.resetCard)
        } catch {
            throw error.transportError
        }
    }

    /// Reads the UID with `FF CA 00 00 00` (`6C XX` → repeat with Le XX); an ISO 15693 UID in display
    /// order (`E0` first) whichever order the reader gives it in (`Type5ATR.displayOrderUID`).
    func readUID() throws(TransportError) -> [UInt8] {
        try closeSession()
        let uid = try transmitChecked([0xFF, 0xCA, 0x00, 0x00, 0x00])
        return isISO15693 ? Type5ATR.displayOrderUID(uid) : uid
    }

    /// Sends `apdu` and returns its data after checking SW1 SW2; `6C XX` and `61 XX` are followed up.
    func transmitChecked(_ apdu: [UInt8]) throws(TransportError) -> [UInt8] {
        var reply = try transmit(apdu)
        if reply.count == 2, reply[0] == 0x6C, apdu.count == 5 {
            reply = try transmit(Array(apdu.prefix(4)) + [reply[1]])
        }
        var data: [UInt8] = []
        while reply.count >= 2, reply[reply.count - 2] == 0x61 {
            data += reply.dropLast(2)
            reply = try transmit([0xFF, 0xC0, 0x00, 0x00, reply[reply.count - 1]])
        }
        guard reply.count >= 2 else { throw .invalidResponse("APDU answer shorter than a status word") }
        let sw1 = reply[reply.count - 2]
        let sw2 = reply[reply.count - 1]
        switch (sw1, sw2) {
        case (0x90, 0x00), (0x62, 0x82): return data + reply.dropLast(2)
        case (0x63, 0x00): throw .nak(0)
        default: throw .invalidResponse("status word \(Hex.string([sw1, sw2])) to \(Hex.string(apdu.prefix(2)))")
        }
    }

    /// One `SCardTransmit`; PC/SC codes become transport errors (removal codes → `.tagLost`).
    func transmit(_ apdu: [UInt8]) throws(TransportError) -> [UInt8] {
        apduCount += 1
        do {
            return try card.transmit(apdu)
        } catch {
            throw error.transportError
        }
    }

    /// ACR122U: `FF 00 00 00 Lc D4 42 <cmd>` → `D5 43 <status> <answer> 90 00`.
    ///
    /// The SW stays `90 00` when the tag failed, so the status decides: `00` answer, `01` silence,
    /// `02` a 4-bit answer seen as a CRC error (RX CRC checking is on; a NAK, code unknown → NAK `0`).
    private func directTransmit(_ command: [UInt8]) throws(TransportError) -> [UInt8] {
        let pn532 = [0xD4, 0x42] + command
        guard pn532.count <= 0xFF else { throw .invalidResponse("command too long for direct transmit") }
        let reply = try transmitChecked([0xFF, 0x00, 0x00, 0x00, UInt8(pn532.count)] + pn532)
        guard reply.count >= 3, reply[0] == 0xD5, reply[1] == 0x43 else {
            throw .invalidResponse("direct transmit answered \(Hex.string(reply.prefix(3)))")
        }
        switch reply[2] {
        case 0x00:
            let answer = Array(reply[3...])
            if answer.count == 1, answer[0] & 0xF0 == 0 { return try fourBit(answer[0]) }
            return answer
        case 0x01: throw .noAnswer
        case 0x02: throw .nak(0)
        default: throw .transport("PN532 status \(Hex.string([reply[2]]))h")
        }
    }

    /// ACR1252U: `FF C2 00 01 Lc [5F 46 04 <µs>] 95 <len> <cmd>` inside a transparent session (opened
    /// once, closed before the next storage-card APDU); `timerMicroseconds` puts the timer object first.
    ///
    /// An ISO 15693 session also switches the protocol: `FF C2 00 02 04 8F 02 02 03` (ISO 15693 layer 3).
    func transparentExchange(_ command: [UInt8], timerMicroseconds: UInt32? = nil) throws(TransportError)
        -> [UInt8]
    {
        if !sessionOpen {
            _ = try transmitChecked([0xFF, 0xC2, 0x00, 0x00, 0x02, 0x81, 0x00])
            sessionOpen = true
            if isISO15693 { _ = try transmitChecked([0xFF, 0xC2, 0x00, 0x02, 0x04, 0x8F, 0x02, 0x02, 0x03]) }
        }
        var objects: [UInt8] = []
        if let timer = timerMicroseconds {
            objects = [0x5F, 0x46, 0x04] + (0..<4).map { UInt8(truncatingIfNeeded: timer >> (8 * $0)) }
        }
        objects += BERDataObject.encode(tag: 0x95, value: command)
        guard objects.count <= 0xFF else { throw .invalidResponse("command too long for transparent exchange") }
        let reply = try transmitChecked([0xFF, 0xC2, 0x00, 0x01, UInt8(objects.count)] + objects)
        guard let parsed = BERDataObject.parseAll(reply) else {
            throw .invalidResponse("transparent exchange answer is not BER-TLV: \(Hex.string(reply))")
        }
        if let status = parsed.first(where: { $0.tag == 0xC0 })?.value, status.count == 3, status[0] != 0 {
            if status[1] == 0x64, status[2] == 0x01 { throw .noAnswer }
            throw .transport("transparent exchange error \(Hex.string(status))")
        }
        guard let answer = parsed.first(where: { $0.tag == 0x97 })?.value else { throw .noAnswer }
        let lastBits = parsed.first(where: { $0.tag == 0x92 })?.value.first
        if lastBits == 0x04, answer.count == 1 { return try fourBit(answer[0]) }
        return answer
    }

    private func fourBit(_ value: UInt8) throws(TransportError) -> [UInt8] {
        if value == 0x0A { return [0x0A] }
        throw .nak(value)
    }

    /// Ends an open transparent session (`FF C2 00 00 02 82 00`).
    func closeSession() throws(TransportError) {
        guard sessionOpen else { return }
        sessionOpen = false
        _ = try transmitChecked([0xFF, 0xC2, 0x00, 0x00, 0x02, 0x82, 0x00])
    }
}
