internal import CNFC
import NFCTags

/// `nfc_context *`.
typealias NFCContextPointer = OpaquePointer
/// `nfc_device *`.
typealias NFCDevicePointer = OpaquePointer

/// The libnfc properties this backend sets (`nfc_property`).
enum LibNFCProperty {
    /// `NP_INFINITE_SELECT`: keep polling until a tag appears.
    case infiniteSelect
    /// `NP_EASY_FRAMING`: InDataExchange (on) or InCommunicateThru (off).
    case easyFraming
    /// `NP_ACTIVATE_FIELD`: RF field on/off.
    case activateField
}

/// Every libnfc call the backend makes: the one file that touches C types and raw pointers, and
/// the place to trace or mock them (`docs/style.md` §4.1).
enum LibNFCCalls {
    /// The corresponding C function is `nfc_version`.
    static func version() -> String { String(cString: nfc_version()) }

    /// The corresponding C function is `nfc_init`.
    static func initContext() -> NFCContextPointer? {
        var context: NFCContextPointer?
        nfc_init(&context)
        return context
    }

    /// The corresponding C function is `nfc_exit`.
    static func exit(_ context: NFCContextPointer) { nfc_exit(context) }

    /// Every connstring libnfc can see. The corresponding C function is `nfc_list_devices`.
    static func listDevices(_ context: NFCContextPointer, max: Int = 8) -> [String] {
        let list = UnsafeMutablePointer<nfc_connstring>.allocate(capacity: max)
        defer { list.deallocate() }
        let count = nfc_list_devices(context, list, max)
        return (0..<count).map { index in
            withUnsafeBytes(of: &list[index]) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
    }

    /// The corresponding C function is `nfc_open`.
    static func open(_ context: NFCContextPointer, _ connstring: String) -> NFCDevicePointer? {
        nfc_open(context, connstring)
    }

    /// The corresponding C function is `nfc_close`.
    static func close(_ device: NFCDevicePointer) { nfc_close(device) }

    /// The corresponding C function is `nfc_initiator_init`.
    static func initiatorInit(_ device: NFCDevicePointer) -> Int32 { nfc_initiator_init(device) }

    /// The corresponding C function is `nfc_device_set_property_bool`.
    static func setProperty(_ device: NFCDevicePointer, _ property: LibNFCProperty, _ enabled: Bool) -> Int32 {
        let raw: nfc_property
        switch property {
        case .infiniteSelect: raw = NP_INFINITE_SELECT
        case .easyFraming: raw = NP_EASY_FRAMING
        case .activateField: raw = NP_ACTIVATE_FIELD
        }
        return nfc_device_set_property_bool(device, raw, enabled)
    }

    /// Selects one ISO/IEC 14443-A tag at 106 kbps, optionally the one with `uid`; an ISO-DEP tag comes
    /// with the ATS libnfc's automatic RATS fetched (`nti.nai.abtAts`), TL byte put back in front.
    /// The corresponding C function is `nfc_initiator_select_passive_target`.
    ///
    /// - Returns: the status (targets found, or a negative error) and the tag when one was found.
    static func selectISO14443A(_ device: NFCDevicePointer, uid: [UInt8]?) -> (Int32, DetectedTag?) {
        var target = nfc_target()
        let modulation = nfc_modulation(nmt: NMT_ISO14443A, nbr: NBR_106)
        let result: Int32
        if let uid {
            result = uid.withUnsafeBufferPointer {
                nfc_initiator_select_passive_target(device, modulation, $0.baseAddress, $0.count, &target)
            }
        } else {
            result = nfc_initiator_select_passive_target(device, modulation, nil, 0, &target)
        }
        guard result > 0 else { return (result, nil) }
        let info = target.nti.nai
        let uidBytes = withUnsafeBytes(of: info.abtUid) { Array($0.prefix(Int(info.szUidLen))) }
        let atqa = withUnsafeBytes(of: info.abtAtqa) { UInt16($0[0]) << 8 | UInt16($0[1]) }
        // libnfc keeps the ATS without its TL byte (`abtAts`, `szAtsLen` = TL − 1); DetectedTag holds it TL first.
        let atsLength = min(Int(info.szAtsLen), 253)
        let atsBody = withUnsafeBytes(of: info.abtAts) { Array($0.prefix(atsLength)) }
        let ats = atsLength == 0 ? [] : [UInt8(atsLength + 1)] + atsBody
        return (result, DetectedTag(uid: uidBytes, atqa: atqa, sak: info.btSak, ats: ats))
    }

    /// Polls for one FeliCa card at 212 or 424 kbit/s with the polling payload `00 SC SC 01 00` (the system code
    /// asked for, RC `01`): InListPassiveTarget `4A 01 01|02 …`. `12FC` finds a card's NDEF system, whose IDm the
    /// ledger records; `FFFF` any card. The system code is kept only when the POL_RES carried it (LEN > 18, as
    /// libnfc decodes it). The corresponding C function is `nfc_initiator_select_passive_target`.
    ///
    /// - Returns: the status (targets found, or a negative error) and the card when one answered.
    static func selectFeliCa(_ device: NFCDevicePointer, fast: Bool, systemCode: UInt16) -> (Int32, DetectedTag?) {
        var target = nfc_target()
        let modulation = nfc_modulation(nmt: NMT_FELICA, nbr: fast ? NBR_424 : NBR_212)
        let polling: [UInt8] = [0x00, UInt8(systemCode >> 8), UInt8(systemCode & 0xFF), 0x01, 0x00]
        let result = nfc_initiator_select_passive_target(device, modulation, polling, polling.count, &target)
        guard result > 0 else { return (result, nil) }
        let info = target.nti.nfi
        let idm = withUnsafeBytes(of: info.abtId) { Array($0) }
        let pmm = withUnsafeBytes(of: info.abtPad) { Array($0) }
        let code = withUnsafeBytes(of: info.abtSysCode) { UInt16($0[0]) << 8 | UInt16($0[1]) }
        let activation = FeliCaActivation(idm: idm, pmm: pmm, systemCode: info.szLen > 18 ? code : nil)
        return (result, DetectedTag(felica: activation))
    }

    /// The corresponding C function is `nfc_initiator_deselect_target`.
    static func deselect(_ device: NFCDevicePointer) -> Int32 { nfc_initiator_deselect_target(device) }

    /// Sends `frame` and returns the status (bytes received, or a negative error) and the bytes.
    /// The corresponding C function is `nfc_initiator_transceive_bytes`.
    static func transceive(
        _ device: NFCDevicePointer, _ frame: [UInt8], capacity: Int, timeoutMilliseconds: Int32
    ) -> (Int32, [UInt8]) {
        var received = [UInt8](repeating: 0, count: capacity)
        let result = frame.withUnsafeBufferPointer { tx in
            received.withUnsafeMutableBufferPointer { rx in
                nfc_initiator_transceive_bytes(
                    device, tx.baseAddress, tx.count, rx.baseAddress, rx.count, timeoutMilliseconds)
            }
        }
        return (result, result > 0 ? Array(received.prefix(Int(result))) : [])
    }

    /// ReadRegister `06` of `addresses` in one frame: the status (negative on error) and one value per
    /// address. The corresponding C function is `pn53x_transceive` (see `inSelect`); a PN533 puts a
    /// status byte before the values, which is dropped.
    static func readRegisters(_ device: NFCDevicePointer, _ addresses: [UInt16]) -> (Int32, [UInt8]) {
        let command: [UInt8] = [0x06] + addresses.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        var answer = [UInt8](repeating: 0, count: addresses.count + 8)
        let result = command.withUnsafeBufferPointer { tx in
            answer.withUnsafeMutableBufferPointer { rx in
                pn53x_transceive(device, tx.baseAddress, tx.count, rx.baseAddress, rx.count, -1)
            }
        }
        guard Int(result) >= addresses.count else { return (result < 0 ? result : NFC_EIO, []) }
        return (result, Array(answer[(Int(result) - addresses.count)..<Int(result)]))
    }

    /// WriteRegister `08` of one register, sent at once: libnfc's write-back cache is bypassed, so
    /// no ReadRegister precedes it (the cache reads a register before a masked write). Returns the
    /// status (negative on error). The corresponding C function is `pn53x_transceive`.
    static func writeRegister(_ device: NFCDevicePointer, _ address: UInt16, _ value: UInt8) -> Int32 {
        let command: [UInt8] = [0x08, UInt8(address >> 8), UInt8(address & 0xFF), value]
        var answer = [UInt8](repeating: 0, count: 8)
        return command.withUnsafeBufferPointer { tx in
            answer.withUnsafeMutableBufferPointer { rx in
                pn53x_transceive(device, tx.baseAddress, tx.count, rx.baseAddress, rx.count, -1)
            }
        }
    }

    /// InSelect `54 01`: selects listed target 1 again (after InDeselect). Returns the status
    /// (negative on error). The corresponding C function is `pn53x_transceive`: exported by
    /// libnfc.so.6, not in its public headers (see `shim.h`).
    static func inSelect(_ device: NFCDevicePointer) -> Int32 {
        let command: [UInt8] = [0x54, 0x01]
        var answer = [UInt8](repeating: 0, count: 8)
        return command.withUnsafeBufferPointer { tx in
            answer.withUnsafeMutableBufferPointer { rx in
                pn53x_transceive(device, tx.baseAddress, tx.count, rx.baseAddress, rx.count, -1)
            }
        }
    }

    /// The corresponding C function is `nfc_abort_command` (safe while another call blocks).
    static func abort(_ device: NFCDevicePointer) -> Int32 { nfc_abort_command(device) }

    /// The device's last error text. The corresponding C function is `nfc_strerror`.
    static func errorText(_ device: NFCDevicePointer) -> String { String(cString: nfc_strerror(device)) }

    /// The device's name. The corresponding C function is `nfc_device_get_name`.
    static func name(_ device: NFCDevicePointer) -> String { String(cString: nfc_device_get_name(device)) }
}
