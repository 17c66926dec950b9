import NFCTags

/// Owns one libnfc context, device and device lock, and the state of the tag session; frees them
/// in `close()` or `deinit`.
///
/// Not Sendable: libnfc handles must only be used from the owning actor's queue.
final class LibNFCDevice {
    let context: NFCContextPointer
    let device: NFCDevicePointer
    private var lock: DeviceLock?
    private var isOpen = true
    /// The serial port it was opened on (UART drivers), to tell a device gone from a failing one.
    let port: DevicePort?
    /// The UID of the selected tag, if any.
    var selectedUID: [UInt8]?
    /// The ATS of the selected tag (TL first) when it is an ISO-DEP tag the chip ran RATS for (SAK bit 6
    /// and an ATS), else `nil`: its commands are whole APDUs through InDataExchange.
    private(set) var selectedATS: Type4ATS?
    /// Whether the selected tag is a FeliCa card: its frames (LEN first) go through InDataExchange.
    private(set) var selectedFeliCa = false
    /// The modulations a poll tries, the one that found the last tag first, so a line of one family pays one
    /// InListPassiveTarget per poll: ISO/IEC 14443-A at 106 kbps, FeliCa at 212 and at 424 kbit/s, each with
    /// Polling `12FC` (the NDEF system: a Type 3 tag's detection is its NDEF poll) before `FFFF` (any card: one
    /// without the NDEF system, to format or to report).
    private var modulations: [Modulation] = [
        .typeA, .felica(fast: false, systemCode: 0x12FC), .felica(fast: false, systemCode: 0xFFFF),
        .felica(fast: true, systemCode: 0x12FC), .felica(fast: true, systemCode: 0xFFFF),
    ]

    /// A modulation InListPassiveTarget polls with (FeliCa with the system code of its polling payload).
    enum Modulation: Equatable {
        case typeA
        case felica(fast: Bool, systemCode: UInt16)
    }
    /// Whether easy framing is off (tag commands through InCommunicateThru; a libnfc flag, no frame).
    private var easyFramingOff = false
    /// The CRC bits of TxMode/RxMode and what a select does to them, as far as the backend knows.
    /// The device is made just before `nfc_initiator_init`, and nothing is sent in between.
    private(set) var crc = PN53xCRCState.afterInitiatorInit
    /// Whether InSelect wakes a target InDeselect halted (`nil`: not learned yet; `false`: this
    /// firmware sends REQA, so re-activation cycles the field).
    private var inSelectWakesHalted: Bool?

    /// Slack added to a tag timeout for the host link (UART, USB) when passed to libnfc (spec option
    /// `slack=MS`, default 50; software emulators on a loaded host may need more).
    var linkSlackMilliseconds = 50

    init(context: NFCContextPointer, device: NFCDevicePointer, lock: DeviceLock, port: DevicePort? = nil) {
        self.context = context
        self.device = device
        self.lock = lock
        self.port = port
    }

    deinit { close() }

    /// InRelease, field off and PowerDown (what `nfc_close` sends), then frees the context and
    /// drops the lock. Idempotent.
    func close() {
        guard isOpen else { return }
        isOpen = false
        LibNFCCalls.close(device)
        LibNFCCalls.exit(context)
        lock = nil
    }

    /// A status with libnfc's text for it.
    func status(_ raw: Int32) -> NFCStatus {
        NFCStatus(rawValue: raw, detail: LibNFCCalls.errorText(device))
    }

    /// The error a failed call (`what`, status `raw`) stands for: `.readerGone` when the device's port went away
    /// (`DevicePort`), else `.transport`.
    func failure(_ what: String, _ raw: Int32) -> TransportError {
        let text = (what.isEmpty ? "" : what + ": ") + "\(status(raw))"
        return port?.isGone == true ? .readerGone(text) : .transport(text)
    }

    /// Readies the chip for a tag command, sending only what it needs: easy framing off once (a
    /// libnfc flag), then, while RX CRC is on, one WriteRegister of RxMode `6303` with CRC checking off
    /// (right after `nfc_initiator_init`, and after each select of a chip whose selects switch CRC on).
    ///
    /// The write goes past libnfc's write-back cache, which would read the register first
    /// (`docs/reference/pn532-libnfc.md` §6); the value comes from `crc`. When the registers are unknown (after the
    /// first select that finds RX CRC off, or after a failure) one ReadRegister of TxMode and RxMode
    /// comes first, and teaches `crc` what this chip's selects do (`docs/pn532.md`, "Frames per tag").
    /// - Returns: whether the host appends CRC_A (the chip's TX CRC is off).
    func prepareTagCommand() throws(TransportError) -> Bool {
        if !easyFramingOff {
            try set(.easyFraming, false)
            easyFramingOff = true
        }
        try readCRCRegistersIfUnknown()
        if let value = crc.rxModeToWrite {
            let result = LibNFCCalls.writeRegister(device, PN53xCRCState.rxModeAddress, value)
            guard result >= 0 else {
                crc.forget()
                throw failure("cannot write RxMode", result)
            }
            crc.wroteRxMode(value)
        }
        return crc.hostAppendsCRC
    }

    /// One ReadRegister of TxMode and RxMode when `crc` does not know them (`docs/reference/pn532-libnfc.md` §6).
    private func readCRCRegistersIfUnknown() throws(TransportError) {
        guard crc.needsRead else { return }
        let addresses = [PN53xCRCState.txModeAddress, PN53xCRCState.rxModeAddress]
        let (result, values) = LibNFCCalls.readRegisters(device, addresses)
        guard result >= 0 else { throw failure("cannot read TxMode and RxMode", result) }
        crc.read(PN53xCRCState.Registers(transmitCRC: values[0] & 0x80 != 0, rxMode: values[1]))
    }

    /// Readies the chip for an APDU to an ISO-DEP tag: easy framing on (InDataExchange: the PN532 runs the
    /// ISO-DEP block protocol and its CRC_A), and RX CRC back on when this backend had switched it off for
    /// a Type 2 tag, so the chip's registers are as libnfc's init leaves them (`docs/reference/type4.md` §6.1).
    /// Nothing is sent when both are already so. TX CRC is never switched off by this backend.
    func prepareAPDU() throws(TransportError) {
        if easyFramingOff {
            try set(.easyFraming, true)
            easyFramingOff = false
        }
        try readCRCRegistersIfUnknown()
        if let registers = crc.registers, !registers.receiveCRC {
            let value = registers.rxMode | 0x80
            let result = LibNFCCalls.writeRegister(device, PN53xCRCState.rxModeAddress, value)
            guard result >= 0 else {
                crc.forget()
                throw failure("cannot write RxMode", result)
            }
            crc.wroteRxMode(value)
        }
    }

    /// Forgets what the backend knows of the CRC bits (after a failed exchange they may explain): the
    /// next tag command reads them, and the next select's effect is learned again.
    func distrustCRCBits() {
        crc.forget()
    }

    private func set(_ property: LibNFCProperty, _ enabled: Bool) throws(TransportError) {
        let result = LibNFCCalls.setProperty(device, property, enabled)
        guard result >= 0 else { throw failure("cannot set \(property)", result) }
    }

    /// One select (InListPassiveTarget, finite retries) in whatever framing mode the device is in (libnfc's
    /// select does not depend on it): of any tag, trying each modulation in `modulations` order until one
    /// answers, or of `uid` with the modulation that found the last tag (a FeliCa card by polling again and
    /// comparing the IDm).
    ///
    /// - Returns: the tag, or `nil` when none answered.
    func select(uid: [UInt8]? = nil) throws(TransportError) -> DetectedTag? {
        for (index, modulation) in modulations.enumerated() where uid == nil || index == 0 {
            guard let tag = try select(modulation, uid: uid) else { continue }
            if index > 0 {
                modulations.remove(at: index)
                modulations.insert(modulation, at: 0)
            }
            return tag
        }
        return nil
    }

    private func select(_ modulation: Modulation, uid: [UInt8]?) throws(TransportError) -> DetectedTag? {
        let (result, found) =
            switch modulation {
            case .typeA: LibNFCCalls.selectISO14443A(device, uid: uid)
            case .felica(let fast, let code): LibNFCCalls.selectFeliCa(device, fast: fast, systemCode: code)
            }
        crc.selectRan()
        if result < 0 {
            let failed = status(result)
            if failed == .timeout || failed == .aborted { return nil }
            throw failure("select failed", result)
        }
        let tag = uid == nil || found?.uid == uid ? found : nil
        selectedUID = tag?.uid
        selectedATS = tag.flatMap { $0.sak & 0x20 != 0 ? Type4ATS($0.ats) : nil }
        selectedFeliCa = tag?.felica != nil
        return tag
    }

    /// Readies the chip for a FeliCa frame: easy framing on (InDataExchange; the PN532 adds preamble, sync and
    /// CRC). Nothing is sent when it is on already.
    func prepareFeliCaFrame() throws(TransportError) {
        guard easyFramingOff else { return }
        try set(.easyFraming, true)
        easyFramingOff = false
    }

    /// Re-activates the selected tag: HLTA and WUPA without a field cycle — InDeselect `44`, then
    /// InSelect `54` (wake, anticollision and SELECT of the listed UID; ISO/IEC 14443-3) — or, when
    /// InSelect fails or is known not to wake halted tags, field off/on and a select of the same UID.
    ///
    /// A tag the field cycle finds after InSelect failed teaches the device that this firmware's
    /// InSelect does not wake halted tags (or not reliably): later re-activations cycle the field.
    /// - Returns: whether the tag is selected again (`false`: it is gone).
    func reactivate() throws(TransportError) -> Bool {
        guard let uid = selectedUID else { return false }
        if selectedFeliCa { return try select(uid: uid) != nil }  // no HALT in FeliCa: one Polling
        let tried = inSelectWakesHalted != false
        if tried {
            try deselect()
            let result = LibNFCCalls.inSelect(device)
            crc.selectRan()
            // Any failure falls back to the field cycle, which reports a device that stopped answering.
            if result >= 0 {
                selectedUID = uid
                inSelectWakesHalted = true
                return true
            }
        }
        try cycleField()
        guard try select(uid: uid) != nil else { return false }
        if tried { inSelectWakesHalted = false }
        return true
    }

    /// Switches the field off and on: every tag in it resets to IDLE (halted ones wake up).
    func cycleField() throws(TransportError) {
        for on in [false, true] {
            let result = LibNFCCalls.setProperty(device, .activateField, on)
            guard result >= 0 else { throw failure("cannot switch the field", result) }
        }
        selectedUID = nil
    }

    /// InDeselect `44` of the selected tag (HLTA; the tag goes to HALT).
    func deselect() throws(TransportError) {
        guard selectedUID != nil else { return }
        selectedUID = nil
        let result = LibNFCCalls.deselect(device)
        guard result >= 0 else { throw failure("deselect failed", result) }
    }
}

@available(*, unavailable)
extension LibNFCDevice: Sendable {}
