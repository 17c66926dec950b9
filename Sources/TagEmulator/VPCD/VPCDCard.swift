import NFCTags

/// The card side of one vpcd slot: turns vpcd messages into tag exchanges and status words, the way a
/// PC/SC contactless reader presents a Type 2 tag or an ISO-DEP (Type 4) tag (`docs/reference/pcsc.md` §7, §10).
///
/// ```
/// ATR                         3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68 (Type 2)
///                             3B 8n 80 01 <n historical bytes of the ATS> TCK            (ISO-DEP)
/// FF CA 00 00 Le              UID (7 bytes) 90 00 | 6C XX | UID 62 82
/// FF CA 01 00 00              6A 81 (no ATS on a Type 2 tag) | ISO-DEP: the ATS, TL first, 90 00
/// CLA ≠ FF                    ISO-DEP: the APDU to the tag unchanged, its own R-APDU | Type 2: 6E 00
/// FF B0 00 pp Le (Le ≤ 10h)   READ 30h → Le bytes 90 00 | 63 00
/// FF D6 00 pp 04 d0 d1 d2 d3  WRITE A2h → 90 00 | 63 00
/// FF 00 00 00 Lc D4 42 …      acr122u: InCommunicateThru → D5 43 <status> … 90 00
/// FF C2 00 0x Lc <DOs>        acr1252u, acr1552u, omnikey: transparent session and exchange
/// FF 00 40 ss 04 t1 t2 n b    acr122u: LED/buzzer → 90 ss (recorded)
/// FeliCa card                 FeliCa ATR, FF CA → IDm, frames by direct transmit (VPCDCard+FeliCa.swift)
/// ```
///
/// Which kind a tag is, the card learns as a reader does: from the tag's activation (SAK bit 6 and
/// the ATS, `VPCDCard+ISODEP.swift`; an Inventory answer for an ISO 15693 tag, `VPCDCard+ISO15693.swift`),
/// kept until the tag leaves.
///
/// The card keeps no socket: the connection loop feeds it messages and sends what it returns. Power
/// off, power on and reset all switch the tag's field off (dropping PWD_AUTH state, `docs/reference/type2.md`
/// §9); power on and reset then activate it again. After a NAK or silence the tag stays idle, as
/// silicon does, until the host resets the card (`SCardReconnect` with `SCARD_RESET_CARD`).
///
/// Not `Sendable`: it owns the non-Sendable tag endpoint and lives on its connection loop's thread.
public final class VPCDCard {
    /// The PC/SC part 3 ATR a reader builds for an NTAG21x ("MIFARE Ultralight", `docs/reference/pcsc.md` §10.1).
    public static let atr: [UInt8] = [
        0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03, 0x00, 0x03, 0x00, 0x00,
        0x00, 0x00, 0x68,
    ]

    /// The reader family whose raw-command path is imitated.
    public let style: VPCDReaderStyle
    /// The tag in the field (`nil`: empty slot).
    public private(set) var tag: (any TagEndpoint)?
    /// Every LED/buzzer APDU received (`FF 00 40 …`), in order.
    public private(set) var feedbackLog: [[UInt8]] = []
    /// Counters for the control socket's `stats`.
    public private(set) var statistics = VPCDStatistics()
    /// Whether the tag is currently selected (activated since the last power-up or reset).
    public private(set) var selected = false
    /// Whether the card is powered.
    public private(set) var powered = false
    /// APDUs answered since the tag was inserted (line mode: the host has used this tag).
    public private(set) var apdusSinceInsert = 0
    /// The tag's last successful activation (UID, SAK, ATS): it decides the ATR and the APDU paths.
    public private(set) var activation: DetectedTag?
    /// Transparent session state (acr1252u, acr1552u, omnikey styles).
    var transparentSession = false
    /// The session's timer (`5F 46`, µs); `nil` until the host sets one.
    var transparentTimerMicroseconds: Double?
    /// The reader's own response timer for ISO 15693 exchanges before the host sets one, µs. The reference
    /// only says it is shorter than one EEPROM write (`docs/reference/type5.md` §3.4, `[UNV]`); 2 ms is this
    /// emulator's documented default, so a write without `5F 46` times out as on the ACR1552U.
    public var iso15693DefaultTimerMicroseconds = 2_000.0

    /// Creates a card imitating `style`, with an empty field.
    public init(style: VPCDReaderStyle) {
        self.style = style
    }

    /// Puts `tag` in the field (it is activated at the next power-on).
    public func insert(_ tag: any TagEndpoint) {
        self.tag?.fieldOff()
        self.tag = tag
        selected = false
        powered = false
        activation = nil
        apdusSinceInsert = 0
        transparentSession = false
        transparentTimerMicroseconds = nil
        statistics.insertions += 1
    }

    /// The tag entered the reader's field (the link to vpcd is up).
    ///
    /// The reader's polling loop selects it at once, as a contactless reader does, even before pcscd
    /// sends power-on. This matters when a tag
    /// is swapped faster than pcscd's presence check: pcscd then sees no removal and no power-on.
    public func enterField() {
        guard tag != nil else { return }
        tag?.fieldOff()
        activate()
    }

    /// Takes the tag out of the field.
    public func removeTag() {
        guard let tag else { return }
        tag.fieldOff()
        self.tag = nil
        selected = false
        powered = false
        activation = nil
        statistics.removals += 1
    }

    /// Handles one message and returns the reply payload, or `nil` when the message takes no reply.
    ///
    /// Every APDU reply is at least SW1 SW2, never empty (`docs/reference/pcsc.md` §8, pitfall 7).
    public func handle(_ message: VPCDMessage) -> [UInt8]? {
        switch message {
        case .powerOff:
            statistics.powerOffs += 1
            powered = false
            switchFieldOff()
            return nil
        case .powerOn:
            statistics.powerOns += 1
            powered = true
            switchFieldOff()
            activate()
            return nil
        case .reset:
            statistics.resets += 1
            powered = true
            switchFieldOff()
            activate()
            return nil
        case .atrRequest:
            statistics.atrRequests += 1
            // A reader builds the ATR from an activated tag: one in the field but not yet activated is
            // activated first, so its ATR is never the storage-card default by accident.
            if tag != nil, activation == nil { activate() }
            return answerToReset
        case .unknownControl:
            return nil
        case .apdu(let apdu):
            statistics.apdus += 1
            apdusSinceInsert += 1
            let reply = answer(apdu)
            return reply.isEmpty ? StatusWord.failed : reply
        }
    }

    func statisticsUnsupported() { statistics.unsupported += 1 }
    func countRaw() { statistics.rawCommands += 1 }
    func countISO() { statistics.isoAPDUs += 1 }

    func recordFeedback(_ apdu: [UInt8]) {
        statistics.feedbackCommands += 1
        feedbackLog.append(apdu)
    }

    /// RF off inside a transparent session: the tag loses power like at a power-off.
    func fieldOffInSession() {
        tag?.fieldOff()
        selected = false
    }

    /// RF on inside a transparent session: the tag is activated again.
    func fieldOnInSession() {
        tag?.fieldOff()
        activate()
    }

    private func switchFieldOff() {
        tag?.fieldOff()
        selected = false
        transparentSession = false
        transparentTimerMicroseconds = nil
    }

    private func activate() {
        let detected = tag?.activate()
        selected = detected != nil
        if let detected { activation = detected }
    }

    /// Sends one raw tag command to the selected tag; a tag that is not selected is silent.
    ///
    /// A Type 2 command goes to the tag's command face, and a NAK or silence leaves the tag idle. For an
    /// ISO-DEP tag the reader sends the bytes as they are on the air (`rawFrame`); a frame that is no valid
    /// block goes unanswered and the tag stays in protocol-active state.
    func exchange(_ command: [UInt8]) -> TagAnswer {
        guard let tag, selected else { return .silence }
        if isISODEP { return rawFrame(command, to: tag) }
        let answer = tag.exchange(command)
        switch answer {
        case .nak, .silence: selected = false
        case .data, .ack: break
        }
        return answer
    }

    private func answer(_ apdu: [UInt8]) -> [UInt8] {
        guard apdu.count >= 4 else { return StatusWord.wrongLength }
        guard apdu[0] == 0xFF else {
            guard isISODEP else { return StatusWord.unknownClass }
            return passThrough(apdu)
        }
        switch apdu[1] {
        case 0xCA:
            statistics.uidRequests += 1
            return getData(apdu)
        case 0xB0:
            statistics.reads += 1
            if isFeliCa { return StatusWord.failed }
            if isISO15693 { return storageISO15693(apdu) }
            return isISODEP ? StatusWord.failed : readBinary(apdu)
        case 0xD6:
            statistics.updates += 1
            if isFeliCa { return StatusWord.failed }
            if isISO15693 { return storageISO15693(apdu) }
            return isISODEP ? StatusWord.failed : updateBinary(apdu)
        case 0x00:
            return isFeliCa ? feliCaDirectTransmit(apdu) : pseudoCommand(apdu)
        case 0xC2:
            return transparentExchange(apdu)
        default:
            statistics.unsupported += 1
            return StatusWord.unknownInstruction
        }
    }

    /// `FF CA P1 00 Le`: P1 `00` UID, `01` ATS (ISO-DEP tags only; `6A 81` on Type 2).
    ///
    /// Le `00` or the exact length gives the value and `90 00`; a shorter Le `6C XX`; a longer one the
    /// value and `62 82` (`docs/reference/pcsc.md` §10.2).
    private func getData(_ apdu: [UInt8]) -> [UInt8] {
        guard apdu[3] == 0x00 else { return StatusWord.wrongParameters }
        guard let tag else { return StatusWord.failed }
        let value: [UInt8]
        switch apdu[2] {
        case 0x00: value = reportedUID(tag)
        case 0x01 where isISODEP: value = activation?.ats ?? []
        default: return StatusWord.notSupported
        }
        let le = apdu.count >= 5 ? Int(apdu[4]) : 0
        if le == 0 || le == value.count { return value + StatusWord.success }
        if le < value.count { return StatusWord.wrongLe(value.count) }
        return value + StatusWord.endReached
    }

    /// `FF B0 00 pp Le`: one READ `30h` (four pages); Le 00 means 16.
    private func readBinary(_ apdu: [UInt8]) -> [UInt8] {
        guard apdu[2] == 0x00 else { return StatusWord.wrongParameters }
        let le = apdu.count >= 5 ? Int(apdu[4]) : 16
        guard le <= 16 else { return StatusWord.failed }
        guard case .data(let data) = exchange([0x30, apdu[3]]), data.count == 16 else { return StatusWord.failed }
        return Array(data.prefix(le == 0 ? 16 : le)) + StatusWord.success
    }

    /// `FF D6 00 pp 04 d0 d1 d2 d3`: one WRITE `A2h`.
    private func updateBinary(_ apdu: [UInt8]) -> [UInt8] {
        guard apdu[2] == 0x00 else { return StatusWord.wrongParameters }
        guard apdu.count == 9, apdu[4] == 0x04 else { return StatusWord.failed }
        guard case .ack = exchange([0xA2, apdu[3]] + apdu[5..<9]) else { return StatusWord.failed }
        return StatusWord.success
    }
}

/// Counters reported by the control socket's `stats` command.
public struct VPCDStatistics: Sendable, Hashable {
    /// Tags put in the field.
    public var insertions = 0
    /// Tags taken out.
    public var removals = 0
    /// Power-on control messages.
    public var powerOns = 0
    /// Power-off control messages.
    public var powerOffs = 0
    /// Warm resets.
    public var resets = 0
    /// ATR requests (including presence heartbeats).
    public var atrRequests = 0
    /// APDUs of any kind.
    public var apdus = 0
    /// `FF CA` requests.
    public var uidRequests = 0
    /// `FF B0` reads.
    public var reads = 0
    /// `FF D6` writes.
    public var updates = 0
    /// Raw tag commands through the style's path.
    public var rawCommands = 0
    /// LED/buzzer APDUs.
    public var feedbackCommands = 0
    /// APDUs answered with "not supported".
    public var unsupported = 0
    /// ISO 7816-4 APDUs (CLA ≠ `FF`) passed through to an ISO-DEP tag.
    public var isoAPDUs = 0

    /// Creates zeroed counters.
    public init() {}

    /// One `key=value` line (the control socket's `stats` answer).
    public var line: String {
        "insertions=\(insertions) removals=\(removals) power_on=\(powerOns) power_off=\(powerOffs) "
            + "resets=\(resets) atr=\(atrRequests) apdus=\(apdus) uid=\(uidRequests) read=\(reads) "
            + "update=\(updates) raw=\(rawCommands) feedback=\(feedbackCommands) unsupported=\(unsupported) "
            + "iso=\(isoAPDUs)"
    }
}
