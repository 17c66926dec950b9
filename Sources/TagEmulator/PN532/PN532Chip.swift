import NFCTags

/// The PN532 command layer (firmware 1.6) in front of an emulated tag field: one host frame in,
/// one answer out (`docs/reference/pn532-libnfc.md` §4–§6, §8.3).
///
/// Pure and synchronous: framing, the UART and timing belong to `PN532Emulator`. Not `Sendable`:
/// it owns the (non-Sendable) field and is driven from the emulator's I/O thread.
public final class PN532Chip {
    /// What the chip does with one command frame.
    public enum Outcome: Equatable {
        /// ACK, then this reply payload (starting with `D5`).
        case reply([UInt8])
        /// ACK, and the command stays pending (InListPassiveTarget / InAutoPoll with no tag).
        case pending
        /// ACK, then the application-level error frame (unsupported command).
        case applicationError
        /// No ACK at all (frame refused while asleep, or not a host frame).
        case ignored
    }

    /// Power state (`docs/reference/pn532-libnfc.md` §8.3).
    public enum Power: Sendable, Hashable {
        /// After reset: only SAMConfiguration is accepted in strict mode.
        case lowVbat
        /// Normal operation.
        case normal
        /// After PowerDown `16`: a `55` wake-up byte is needed before the next frame.
        case poweredDown
    }

    /// The emulated tags.
    public let field: any PN532TagField
    /// The CIU register file.
    public var registers = PN532Registers()
    /// Whether the RF field is on (RFConfiguration item 1).
    public private(set) var fieldOn = true
    /// MxRtyPassiveActivation from RFConfiguration item 5; `FF` means "wait for a tag".
    public private(set) var passiveActivationRetries: UInt8 = 0xFF
    /// The power state.
    public private(set) var power = Power.lowVbat
    /// Refuse frames that break the wake-up rules (`docs/reference/pn532-libnfc.md` §8.3): anything but
    /// SAMConfiguration in LowVbat, any frame after PowerDown without a `55` wake-up. Off (the
    /// `--lenient-power` switch, open question 'LowVbat strictness'), the first frame of any kind
    /// brings the chip to normal operation, as hosts such as nfcpy expect (GetFirmwareVersion first).
    public var strict = true
    /// The status byte InDataExchange returns for a Type 2 NAK (`14`, `docs/reference/pn532-libnfc.md` §12).
    public var nakStatus: UInt8 = 0x14
    /// Whether an activation (InListPassiveTarget, InAutoPoll, InSelect) leaves CRC on in TxMode and RxMode.
    ///
    /// On by default, as a real PN532 does it (inferred, not measured on silicon): the activation's
    /// SELECT goes out with CRC_A and its SAK comes back with one, so the firmware switches both bits
    /// on, and nfcpy's design shows it does not put the host's back. The CIU registers outlive a host
    /// session (InRelease, PowerDown and the next wake-up keep them), so hosts that do not reset them
    /// count on the select: nfcpy never sets TX CRC and clears RX CRC after each Type 2 select. With
    /// the host's bits kept, a libnfc session that ended with TX CRC off (as `provision write --reader
    /// nfc:` left it before it kept TX CRC on) made nfcpy's next session send its tag commands without
    /// CRC_A; the tag NAKed them and nfcpy saw a generic Type2Tag without NDEF (issue 27 item 16,
    /// `docs/pn532.md` "Across host sessions"). `false` (`--select-keeps-crc`) models a firmware that
    /// keeps them.
    public var selectSetsCRC = true
    /// Whether InSelect wakes a target InDeselect halted (WUPA, as the emulator assumes) or sends
    /// REQA, so a halted target stays silent (`false`). Real firmware is unverified (`docs/pn532.md`).
    public var inSelectWakesHalted = true
    /// Frames refused in strict mode.
    public private(set) var refusedFrames = 0
    /// Commands answered, by command code.
    public private(set) var commandCounts: [UInt8: Int] = [:]

    /// The UID of the tag the last InDataExchange / InCommunicateThru was passed to (`nil` when the
    /// last command reached no tag); front-end misbehaviour is scheduled by it.
    public internal(set) var lastExchangeUID: [UInt8]?

    /// The command pending now (its payload), if any.
    public internal(set) var pendingCommand: [UInt8]?
    /// SetParameters `12` flags (PN532 user manual §7.2.9): bit 4 fAutomaticRATS, bit 2
    /// fAutomaticATR_RES. Reset value `14` (both on, as libnfc sets them; the reset value on silicon
    /// is unverified); nfcpy sets `00` and runs RATS itself.
    public internal(set) var parameterFlags: UInt8 = 0x14
    /// An InDataExchange command the host is sending in parts (MI bit 6 of the Tg byte).
    var chainedCommand: [UInt8] = []
    /// The rest of an InDataExchange answer too long for one reply (MI bit 6 of the status byte).
    var pendingDataIn: [UInt8] = []
    /// The most DataIn bytes one InDataExchange reply carries before the chip chains with MI (262,
    /// PN532 user manual §7.3.8); a test hook can lower it to force the split.
    public var maximumDataIn = 262
    /// Whether target 1 was activated with RATS (ISO-DEP): InDataExchange then carries whole APDUs.
    var selectedSpeaksISODEP = false
    /// The tag the host has selected as target 1.
    var selected: (any TagEndpoint)?
    /// Target 1 after InDeselect: still listed, so InSelect can select it again.
    private var deselected: (any TagEndpoint)?
    /// Whether an InDeselect ended the last command: the host is done with the tag (line mode: it
    /// leaves) unless the very next command is InSelect.
    private var releasePending = false
    /// Tags halted by InDeselect/InRelease: invisible to InListPassiveTarget (REQA) until the field
    /// is cycled (`docs/reference/pn532-libnfc.md` §8.4).
    /// Held strongly so a departed tag's address cannot be reused by the next one.
    var halted: [any TagEndpoint] = []

    /// The UART speeds of SetSerialBaudRate `10`, by its BR byte (PN532 user manual §7.2.5).
    public static let serialBaudRates = [9_600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 921_600, 1_288_000]

    /// Creates a chip in front of `field`.
    public init(field: any PN532TagField) {
        self.field = field
    }

    /// Total modelled airtime of the tag in the field (for the timing model).
    public var airtimeMicroseconds: Double { field.current?.airtimeMicroseconds ?? 0 }

    /// Handles one host information frame (`payload` starts with the TFI `D4`).
    ///
    /// - Parameter wokenUp: whether `55` wake-up bytes preceded the frame.
    public func handle(_ payload: [UInt8], wokenUp: Bool = false) -> Outcome {
        guard payload.count >= 2, payload[0] == 0xD4 else { return .ignored }
        let code = payload[1]
        let data = Array(payload.dropFirst(2))
        switch power {
        case .poweredDown where !wokenUp && strict:
            refusedFrames += 1
            return .ignored
        case .lowVbat where code != 0x14 && strict:
            refusedFrames += 1
            return .ignored
        default:
            power = .normal
        }
        pendingCommand = nil
        lastExchangeUID = nil
        commandCounts[code, default: 0] += 1
        if code != 0x40 {
            chainedCommand = []
            pendingDataIn = []
        }
        if releasePending {
            releasePending = false
            if code != 0x54 { field.hostReleased() }
        }
        guard let answer = answer(code: code, data: data, payload: payload) else { return .pending }
        guard let reply = answer else { return .applicationError }
        return .reply([0xD5, code &+ 1] + reply)
    }

    /// The host aborted the pending command (host ACK frame).
    public func abortPending() {
        pendingCommand = nil
    }

    /// Completes the pending command if its condition is now met (a tag arrived).
    ///
    /// - Returns: the reply payload, or `nil` while still pending.
    public func resolvePending() -> [UInt8]? {
        guard let payload = pendingCommand, payload.count >= 2 else { return nil }
        let code = payload[1]
        let data = Array(payload.dropFirst(2))
        guard let answer = answer(code: code, data: data, payload: payload), let reply = answer else { return nil }
        pendingCommand = nil
        return [0xD5, code &+ 1] + reply
    }

    /// The reply a pending InAutoPoll gives when its polls run out.
    public func expirePending() -> [UInt8]? {
        guard let payload = pendingCommand, payload.count >= 2 else { return nil }
        pendingCommand = nil
        return payload[1] == 0x60 ? [0xD5, 0x61, 0x00] : [0xD5, payload[1] &+ 1, 0x00]
    }

    /// The answer data after `D5 CC+1`: `nil` = pending, `.some(nil)` = unsupported.
    private func answer(code: UInt8, data: [UInt8], payload: [UInt8]) -> [UInt8]?? {
        switch code {
        case 0x00: return diagnose(data)
        case 0x02: return [0x32, 0x01, 0x06, 0x07]
        case 0x04:  // GetGeneralStatus: Err, Field, NbTg, [Tg BrRx BrTx Type], SAM status
            let target: [UInt8] = selected == nil ? [0x00] : [0x01, 0x01, 0x00, 0x00, 0x00]
            return [0x00, fieldOn ? 0x01 : 0x00] + target + [0x80]
        case 0x06: return readRegisters(data)
        case 0x08: return writeRegisters(data)
        case 0x0C: return [0xFF, 0xFF, 0xFF]
        case 0x10:  // SetSerialBaudRate: BR 00…08 (9600 … 1288000); the emulator switches the UART
            guard data.count == 1, Int(data[0]) < Self.serialBaudRates.count else { return .some(nil) }
            return []
        case 0x12:
            parameterFlags = data.first ?? parameterFlags
            return []
        case 0x0E, 0x14: return []
        case 0x16:
            power = .poweredDown
            return [0x00]
        case 0x32: return rfConfiguration(data)
        case 0x40: return dataExchange(data)
        case 0x42: return communicateThru(data)
        case 0x44: return deselect(data)
        case 0x52: return release(data)
        case 0x4A: return listPassiveTarget(data, payload: payload)
        case 0x50: return attributeRequest(data)
        case 0x54: return select(data)
        case 0x60: return autoPoll(data, payload: payload)
        default: return .some(nil)
        }
    }

    private func diagnose(_ data: [UInt8]) -> [UInt8] {
        guard let test = data.first else { return [0x00] }
        return test == 0x00 ? data : [0x00]
    }

    private func readRegisters(_ data: [UInt8]) -> [UInt8] {
        stride(from: 0, to: data.count - 1, by: 2).map { index in
            registers[UInt16(data[index]) << 8 | UInt16(data[index + 1])]
        }
    }

    private func writeRegisters(_ data: [UInt8]) -> [UInt8] {
        for index in stride(from: 0, to: data.count - 2, by: 3) {
            registers[UInt16(data[index]) << 8 | UInt16(data[index + 1])] = data[index + 2]
        }
        return []
    }

    private func rfConfiguration(_ data: [UInt8]) -> [UInt8] {
        guard let item = data.first else { return [] }
        switch item {
        case 0x01:
            let on = data.count > 1 && data[1] & 0x01 != 0
            if !on, fieldOn { cycleField() }
            fieldOn = on
        case 0x05 where data.count >= 4:
            passiveActivationRetries = data[3]
        default:
            break
        }
        return []
    }

    /// Field off: every tag resets, halted tags wake on the next REQA, the target list is lost.
    private func cycleField() {
        field.current?.fieldOff()
        halted.removeAll()
        selected = nil
        deselected = nil
    }

    /// A visible tag (present, not halted), if any.
    var visibleTag: (any TagEndpoint)? {
        guard fieldOn, let tag = field.current else { return nil }
        halted.removeAll { $0 !== tag }
        return halted.isEmpty ? tag : nil
    }

    /// InListPassiveTarget `4A MaxTg BrTy [InitiatorData]`.
    private func listPassiveTarget(_ data: [UInt8], payload: [UInt8]) -> [UInt8]?? {
        // The PN532 switches the field on by itself for the commands that need it (user manual
        // §7.3.1, RFConfiguration item 1): nfcpy turns it off (`32 01 02`, AutoRFCA) before each sense.
        fieldOn = true
        deselected = nil  // a new target list
        guard data.count >= 2 else { return [0x00] }
        if data[1] == 0x01 || data[1] == 0x02 { return listFeliCa(data, payload: payload) }
        guard data[1] == 0x00 else { return [0x00] }  // 106 kbps type A and FeliCa are emulated
        var wanted = Array(data.dropFirst(2))
        if wanted.first == 0x88 { wanted.removeFirst() }
        if let tag = visibleTag, !(tag is any FeliCaEndpoint), wanted.isEmpty || wanted == tag.uid,
            let detected = activate(tag)
        {
            activated(tag, detected)
            return [0x01, 0x01] + targetData(detected)
        }
        if passiveActivationRetries == 0xFF {
            pendingCommand = payload
            return nil
        }
        return [0x00]
    }

    /// InAutoPoll `60 PollNr Period Type…`: type `20` (ISO/IEC 14443-4A, with RATS) for an ISO-DEP tag when
    /// asked for, else type `10` (generic 106 kbps type A, layer 3 only).
    private func autoPoll(_ data: [UInt8], payload: [UInt8]) -> [UInt8]?? {
        fieldOn = true
        if let tag = visibleTag as? any FeliCaEndpoint {
            if let answer = autoPollFeliCa(tag, types: Array(data.dropFirst(2))) { return answer }
        } else if let tag = visibleTag, let found = autoPollActivation(of: tag, types: Array(data.dropFirst(2))) {
            let (type, detected) = found
            activated(tag, detected)
            let target = [0x01] + targetData(detected)
            return [0x01, type, UInt8(target.count)] + target
        }
        pendingCommand = payload
        return nil
    }

    /// Makes `tag` target 1 at 106 kbps type A framing; with `selectSetsCRC`, the activation leaves CRC on
    /// both ways (its SELECT and SAK carry CRC_A), whatever the host or an earlier host session had set.
    private func activated(_ tag: any TagEndpoint, _ detected: DetectedTag) {
        selected = tag
        deselected = nil
        selectedSpeaksISODEP = !detected.ats.isEmpty
        for register in [PN532Registers.txMode, PN532Registers.rxMode] where registers[register] & 0x03 == 0x02 {
            registers[register] &= 0x8C  // from FeliCa framing back to 106 kbps type A
        }
        if selectSetsCRC {
            registers[PN532Registers.txMode] |= 0x80
            registers[PN532Registers.rxMode] |= 0x80
        }
    }

    /// `SENS_RES(2, high byte first) SEL_RES NFCIDLength NFCID [ATS]`: the ATS, TL byte first, only
    /// when the chip ran RATS (`docs/reference/type4.md` §6.2; libnfc takes TL − 1 bytes after TL).
    private func targetData(_ detected: DetectedTag) -> [UInt8] {
        [UInt8(detected.atqa >> 8), UInt8(detected.atqa & 0xFF), detected.sak, UInt8(detected.uid.count)]
            + detected.uid + detected.ats
    }

    /// InSelect `54 Tg`: wakes (WUPA) and activates the listed target again, e.g. after InDeselect.
    /// With `inSelectWakesHalted` off, a halted target stays silent: status `01` (timeout).
    private func select(_ data: [UInt8]) -> [UInt8] {
        guard let tag = selected ?? deselected else { return [0x27] }
        if let card = tag as? any FeliCaEndpoint {
            deselected = nil
            return reselectFeliCa(card)
        }
        let halt = halted.contains { $0 === tag }
        guard field.current === tag, fieldOn, !halt || inSelectWakesHalted, let detected = activate(tag) else {
            return [0x01]
        }
        halted.removeAll { $0 === tag }
        deselected = nil
        activated(tag, detected)
        return [0x00]
    }

    /// InDeselect `44 Tg`: HLTA to the target, which stays listed for InSelect. In line mode the
    /// tag leaves before the next command unless that command is InSelect (the host re-activates).
    private func deselect(_ data: [UInt8]) -> [UInt8] {
        guard let tag = selected else { return [0x00] }
        selected = nil
        if field.current === tag {
            tag.halt()
            if !(tag is any FeliCaEndpoint) { halted.append(tag) }
            deselected = tag
            releasePending = true
        }
        return [0x00]
    }

    /// InRelease `52 Tg`: HLTA to the target, which leaves the target list; the host is done with it.
    private func release(_ data: [UInt8]) -> [UInt8] {
        deselected = nil
        guard let tag = selected else { return [0x00] }
        selected = nil
        if field.current === tag {
            tag.halt()
            if !(tag is any FeliCaEndpoint) { halted.append(tag) }
            field.hostReleased()
        }
        return [0x00]
    }

    /// InDataExchange `40 Tg data`: the PN532 adds and checks CRC_A; a 4-bit ACK is status `00` with
    /// no data, a NAK is `nakStatus`, silence is `01`. To an ISO-DEP target the data is a whole APDU
    /// (`dataExchangeISODEP`, with the chip's own chaining).
    private func dataExchange(_ data: [UInt8]) -> [UInt8] {
        // `40 Tg` alone pulls the rest of an answer sent with MI (libnfc's continuation).
        if data.count == 1, !pendingDataIn.isEmpty { return nextDataIn() }
        pendingDataIn = []
        guard let tg = data.first, let tag = selected else {
            chainedCommand = []
            return [0x27]
        }
        guard field.current === tag, fieldOn else {
            chainedCommand = []
            return [0x01]
        }
        if selectedSpeaksISODEP { return dataExchangeISODEP(tg: tg, Array(data.dropFirst()), tag: tag) }
        if tag is any FeliCaEndpoint { return exchangeFeliCa(Array(data.dropFirst()), tag: tag) }
        guard data.count >= 2 else { return [0x27] }
        lastExchangeUID = tag.uid
        var command = Array(data.dropFirst())
        // COMPATIBILITY_WRITE: the chip runs both radio steps from one frame.
        if command.first == 0xA0, command.count == 18 {
            let second = Array(command.dropFirst(2))
            command = Array(command.prefix(2))
            switch tag.exchange(command) {
            case .ack: break
            case .nak: return [nakStatus]
            case .data, .silence: return [0x01]
            }
            command = second
        }
        switch tag.exchange(command) {
        case .data(let bytes): return [0x00] + bytes
        case .ack: return [0x00]
        case .nak: return [nakStatus]
        case .silence: return [0x01]
        }
    }
}
