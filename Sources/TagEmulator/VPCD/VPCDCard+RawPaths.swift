import NFCTags

extension VPCDCard {
    /// The ACR122U firmware string answered to `FF 00 48 00 00` (ASCII, no status word).
    static let firmware = Array("ACR122U215".utf8)

    /// Answers the ACR122U pseudo-APDUs `FF 00 P1 P2 …` (`docs/reference/pcsc.md` §10.3).
    ///
    /// Other styles answer `6A 81`.
    ///
    /// * `FF 00 00 00 Lc D4 42 <cmd>` InCommunicateThru → `D5 43 <status> <answer> 90 00`; status `00`
    ///   with data, `01` silence, `02` for a 4-bit ACK/NAK (the PN532's RX CRC check is on).
    /// * `FF 00 00 00 Lc D4 40 01 <cmd>` InDataExchange → `D5 41 00 [data]`, NAK → `D5 41 14`; for an
    ///   ISO-DEP tag `<cmd>` is a C-APDU the PN532 carries in ISO-DEP blocks (`dataExchange`).
    /// * `FF 00 40 <LED state> 04 T1 T2 reps buzzer` → `90 <LED state>`, recorded in `feedbackLog`.
    /// * `FF 00 48 00 00` → firmware string.
    func pseudoCommand(_ apdu: [UInt8]) -> [UInt8] {
        guard style == .acr122u else {
            statisticsUnsupported()
            return StatusWord.notSupported
        }
        switch apdu[2] {
        case 0x00:
            guard apdu.count >= 5, apdu.count == 5 + Int(apdu[4]) else { return StatusWord.wrongLength }
            return directTransmit(Array(apdu[5...]))
        case 0x40:
            guard apdu.count == 9, apdu[4] == 0x04 else { return StatusWord.wrongLength }
            recordFeedback(apdu)
            return [0x90, apdu[3]]
        case 0x48:
            return Self.firmware
        default:
            statisticsUnsupported()
            return StatusWord.notSupported
        }
    }

    private func directTransmit(_ pn532: [UInt8]) -> [UInt8] {
        guard pn532.count >= 2, pn532[0] == 0xD4 else { return StatusWord.failed }
        switch pn532[1] {
        case 0x42:
            countRaw()
            switch exchange(Array(pn532[2...])) {
            case .data(let data): return [0xD5, 0x43, 0x00] + data + StatusWord.success
            case .ack, .nak: return [0xD5, 0x43, 0x02] + StatusWord.success
            case .silence: return [0xD5, 0x43, 0x01] + StatusWord.success
            }
        case 0x40:
            guard pn532.count >= 4, pn532[2] == 0x01 else { return [0xD5, 0x41, 0x27] + StatusWord.success }
            countRaw()
            switch isISODEP ? dataExchange(Array(pn532[3...])) : exchange(Array(pn532[3...])) {
            case .data(let data): return [0xD5, 0x41, 0x00] + data + StatusWord.success
            case .ack: return [0xD5, 0x41, 0x00] + StatusWord.success
            case .nak: return [0xD5, 0x41, 0x14] + StatusWord.success
            case .silence: return [0xD5, 0x41, 0x01] + StatusWord.success
            }
        default:
            return StatusWord.failed
        }
    }

    /// `FF C2 00 P2 Lc <data objects>`: the PC/SC part 3 transparent session (`docs/reference/pcsc.md` §10.4,
    /// `docs/reference/type5.md` §3.4).
    ///
    /// P2 `00` manages the session (`81 00` start, `82 00` end, `83 00` RF off, `84 00` RF on, `5F 46` timer);
    /// P2 `01` exchanges (`5F 46` timer, `95 <len> <cmd>` transceive); P2 `02` switches the protocol (`8F`).
    /// Replies carry `C0 03 <error> <SW1> <SW2>`, then for a 4-bit answer `92 01 04`, then
    /// `97 <len> <tag bytes>`, then `90 00`. Silence is `C0 03 01 64 01`. An ISO 15693 tag's exchange is
    /// `transceiveISO15693`.
    func transparentExchange(_ apdu: [UInt8]) -> [UInt8] {
        guard style.hasTransparentExchange else {
            statisticsUnsupported()
            return StatusWord.notSupported
        }
        guard apdu.count >= 5, apdu[2] == 0x00, apdu.count == 5 + Int(apdu[4]),
            let objects = BERDataObject.parseAll(Array(apdu[5...]))
        else { return StatusWord.wrongLength }
        let ok: [UInt8] = [0xC0, 0x03, 0x00, 0x90, 0x00]
        switch apdu[3] {
        case 0x00:
            for object in objects {
                switch object.tag {
                case 0x81: transparentSession = true
                case 0x82: transparentSession = false
                case 0x83: fieldOffInSession()
                case 0x84: fieldOnInSession()
                case 0x5F46: transparentTimerMicroseconds = Self.timerMicroseconds(object.value)
                default: break
                }
            }
            return ok + StatusWord.success
        case 0x01:
            guard transparentSession else { return [0xC0, 0x03, 0x01, 0x69, 0x85] + StatusWord.success }
            for object in objects where object.tag == 0x5F46 {
                transparentTimerMicroseconds = Self.timerMicroseconds(object.value)
            }
            guard let index = objects.firstIndex(where: { $0.tag == 0x95 }), !objects[index].value.isEmpty else {
                return [0xC0, 0x03, 0x01, 0x6A, 0x80] + StatusWord.success
            }
            let command = objects[index].value
            if isFeliCa {  // no FeliCa front end behind this style's transparent exchange
                statisticsUnsupported()
                return [0xC0, 0x03, 0x01, 0x6A, 0x81] + StatusWord.success
            }
            countRaw()
            if isISO15693 { return transceiveISO15693(command, objectIndex: index + 1) }
            switch exchange(command) {
            case .data(let data):
                return ok + BERDataObject.encode(tag: 0x97, value: data) + StatusWord.success
            case .ack:
                return ok + [0x92, 0x01, 0x04, 0x97, 0x01, 0x0A] + StatusWord.success
            case .nak(let code):
                return ok + [0x92, 0x01, 0x04, 0x97, 0x01, code] + StatusWord.success
            case .silence:
                return [0xC0, 0x03, 0x01, 0x64, 0x01] + StatusWord.success
            }
        case 0x02:
            guard let protocolObject = objects.first(where: { $0.tag == 0x8F }), protocolObject.value.count == 2 else {
                return [0xC0, 0x03, 0x01, 0x6A, 0x80] + StatusWord.success
            }
            return ok + [0x8F, 0x01, 0x00] + StatusWord.success
        default:
            return StatusWord.wrongParameters
        }
    }
}
