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
    /// The UID of the selected tag, if any.
    var selectedUID: [UInt8]?
    /// Whether CRC handling and easy framing are off (InCommunicateThru with host-side CRC).
    private var rawMode = false
    /// Whether a select (InListPassiveTarget, InSelect) ran since raw mode was last queued (`enterRawMode`).
    private var registersUnknown = false
    /// Whether this chip's selects leave the host's CRC bits alone (`nil`: not learned yet).
    private(set) var selectKeepsCRCBits: Bool?
    /// Whether InSelect wakes a target InDeselect halted (`nil`: not learned yet; `false`: this
    /// firmware sends REQA, so re-activation cycles the field).
    private var inSelectWakesHalted: Bool?

    /// Slack added to a tag timeout for the host link (UART, USB) when passed to libnfc (spec option
    /// `slack=MS`, default 50; software emulators on a loaded host may need more).
    var linkSlackMilliseconds = 50

    init(context: NFCContextPointer, device: NFCDevicePointer, lock: DeviceLock) {
        self.context = context
        self.device = device
        self.lock = lock
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

    /// Puts the chip in raw mode (CRC off both ways, InCommunicateThru) for tag commands, once:
    /// selects, field switching and InDeselect do not depend on the CRC bits, so the backend never
    /// switches back (`docs/pn532.md`, "Frames per tag").
    ///
    /// After an InListPassiveTarget the firmware may have configured TxMode/RxMode for the
    /// activation (real silicon unverified). The first time, the backend reads the two registers
    /// (ReadRegister `6302`, `6303`) and learns whether this chip keeps the host's CRC bits; if it
    /// does, later selects cost nothing here. If not, every select is followed by CRC on then off in
    /// libnfc's write-back cache, which reads the registers before the next command and writes them
    /// back (`pn532-libnfc.md` §4.3, §6).
    func enterRawMode() throws(TransportError) {
        if rawMode {
            guard registersUnknown else { return }
            registersUnknown = false
            if selectKeepsCRCBits == nil { selectKeepsCRCBits = try crcBitsAreOff() }
            if selectKeepsCRCBits == false {
                try set(.handleCRC, true)
                try set(.handleCRC, false)
            }
        } else {
            try set(.handleCRC, false)
            try set(.easyFraming, false)
            rawMode = true
            registersUnknown = false
        }
    }

    /// Whether TxCRCEn and RxCRCEn (bit 7 of TxMode `6302` and RxMode `6303`) are both clear.
    private func crcBitsAreOff() throws(TransportError) -> Bool {
        var off = true
        for address: UInt16 in [0x6302, 0x6303] {
            let (result, value) = LibNFCCalls.readRegister(device, address)
            guard result >= 0 else {
                throw .transport("cannot read register \(String(address, radix: 16)): \(status(result))")
            }
            off = off && value & 0x80 == 0
        }
        return off
    }

    /// Forgets what a select does to the CRC bits (after a failed exchange): the next select in raw
    /// mode reads them again.
    func distrustCRCBits() {
        selectKeepsCRCBits = nil
    }

    private func set(_ property: LibNFCProperty, _ enabled: Bool) throws(TransportError) {
        let result = LibNFCCalls.setProperty(device, property, enabled)
        guard result >= 0 else { throw .transport("cannot set \(property): \(status(result))") }
    }

    /// One ISO/IEC 14443-A select (InListPassiveTarget, finite retries), optionally of `uid`, in
    /// whatever framing mode the device is in (libnfc's select does not depend on it).
    ///
    /// - Returns: the tag, or `nil` when none answered.
    func select(uid: [UInt8]? = nil) throws(TransportError) -> DetectedTag? {
        let (result, tag) = LibNFCCalls.selectISO14443A(device, uid: uid)
        registersUnknown = rawMode
        if result < 0 {
            let failure = status(result)
            if failure == .timeout || failure == .aborted { return nil }
            throw .transport("select failed: \(failure)")
        }
        selectedUID = tag?.uid
        return tag
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
        let tried = inSelectWakesHalted != false
        if tried {
            try deselect()
            let result = LibNFCCalls.inSelect(device)
            registersUnknown = rawMode
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
            guard result >= 0 else { throw .transport("cannot switch the field: \(status(result))") }
        }
        selectedUID = nil
    }

    /// InDeselect `44` of the selected tag (HLTA; the tag goes to HALT).
    func deselect() throws(TransportError) {
        guard selectedUID != nil else { return }
        selectedUID = nil
        let result = LibNFCCalls.deselect(device)
        guard result >= 0 else { throw .transport("deselect failed: \(status(result))") }
    }
}

@available(*, unavailable)
extension LibNFCDevice: Sendable {}
