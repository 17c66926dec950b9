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

    /// Switches between InDataExchange framing (for select) and raw InCommunicateThru with
    /// host-side CRC_A (for tag commands), only when it changes: libnfc queues the register writes
    /// and sends them before the next command (`pn532-libnfc.md` §4.3).
    func setRawMode(_ raw: Bool) throws(TransportError) {
        guard rawMode != raw else { return }
        for property in [LibNFCProperty.handleCRC, .easyFraming] {
            let result = LibNFCCalls.setProperty(device, property, !raw)
            guard result >= 0 else { throw .transport("cannot set \(property): \(status(result))") }
        }
        rawMode = raw
    }

    /// One ISO/IEC 14443-A select (InListPassiveTarget, finite retries), optionally of `uid`.
    ///
    /// - Returns: the tag, or `nil` when none answered.
    func select(uid: [UInt8]? = nil) throws(TransportError) -> DetectedTag? {
        try setRawMode(false)
        let (result, tag) = LibNFCCalls.selectISO14443A(device, uid: uid)
        if result < 0 {
            let failure = status(result)
            if failure == .timeout || failure == .aborted { return nil }
            throw .transport("select failed: \(failure)")
        }
        selectedUID = tag?.uid
        return tag
    }

    /// Switches the field off and on: every tag in it resets to IDLE (halted ones wake up).
    func cycleField() throws(TransportError) {
        try setRawMode(false)
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
