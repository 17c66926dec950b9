import NDEF
import NFCTags

/// The `Transceiver` for a tag selected by a libnfc reader: InCommunicateThru frames with RX CRC
/// off, the answer's CRC_A checked here, so 4-bit ACK/NAK answers arrive with their exact code; for an
/// ISO-DEP tag (SAK bit 6 and an ATS) whole APDUs through InDataExchange (`transceiveAPDU`).
///
/// The chip appends CRC_A to the command (TX CRC on, as libnfc's init leaves it); the host appends
/// it only when the chip's TX CRC is off (`PN53xCRCState`).
///
/// Mapping (`docs/reference/pn532-libnfc.md` §4.6, §4.8, §6): a 1-byte answer is a 4-bit frame (`0A` ACK →
/// `[0x0A]`, anything else → `.nak(code)`); `NFC_ERFTRANS` (PN532 status `01`, silence) →
/// `.noAnswer` when the tag can still be selected, else `.tagLost` (removed or torn);
/// `NFC_ETGRELEASED` → `.tagLost`; a wrong CRC_A or a 2-byte answer → `.invalidResponse`; any other
/// libnfc error → `.transport`. Not Sendable: used only inside `LibNFCReader.withTransceiver`.
final class LibNFCTransceiver: Transceiver {
    private let device: LibNFCDevice

    init(device: LibNFCDevice) { self.device = device }

    var modelledAirtimeMicroseconds: Double? { nil }

    func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        guard let uid = device.selectedUID else { throw .tagLost }
        if let ats = device.selectedATS {
            return try transceiveAPDU(command, ats: ats, uid: uid, timeoutMilliseconds: timeoutMilliseconds)
        }
        if device.selectedFeliCa {
            return try transceiveFeliCa(command, uid: uid, timeoutMilliseconds: timeoutMilliseconds)
        }
        let frame = try device.prepareTagCommand() ? CRCA.appending(to: command) : command
        let timeout = timeoutMilliseconds > 0 ? Int32(timeoutMilliseconds + device.linkSlackMilliseconds) : -1
        let (result, answer) = LibNFCCalls.transceive(
            device.device, frame, capacity: 1024, timeoutMilliseconds: timeout)
        if result < 0 { try failed(result, uid: uid, frame: true) }
        switch answer.count {
        case 1:
            let code = answer[0] & 0x0F
            if code == 0x0A { return [0x0A] }
            throw .nak(code)
        case 3...:
            guard CRCA.isValid(answer) else {
                device.distrustCRCBits()
                throw .invalidResponse("CRC_A mismatch in \(hex(answer))")
            }
            return Array(answer.dropLast(2))
        default:
            device.distrustCRCBits()
            throw .invalidResponse("\(answer.count)-byte answer '\(hex(answer))' to \(hex(command))")
        }
    }

    /// Maps a failed transceive (`result` < 0) of a raw Type 2 `frame` or an APDU to the error it means: silence
    /// (a mute moment, or the tag left the field: only a new selection tells) is `.noAnswer` or `.tagLost`; a raw
    /// frame's CRC bits are also read again before the next command, in case a select changed them after all.
    private func failed(_ result: Int32, uid: [UInt8], frame: Bool) throws(TransportError) -> Never {
        let failure = device.status(result)
        switch failure {
        case .rfTransmissionError:
            if frame { device.distrustCRCBits() }
            let felica = device.selectedFeliCa
            device.selectedUID = nil
            if !felica { try device.cycleField() }  // a FeliCa card has no HALT: polling again finds it
            guard try device.select(uid: uid) != nil else { throw .tagLost }
            throw .noAnswer
        case .targetReleased:
            device.selectedUID = nil
            throw .tagLost
        case .mifareAuthenticationFailed where frame:
            throw .nak(0)
        default:
            throw device.failure("", result)
        }
    }

    /// One C-APDU to an ISO-DEP tag with easy framing on: libnfc sends InDataExchange `40 01 <APDU>` and the
    /// PN532 runs the block protocol (chaining to the tag's FSC, R(ACK), S(WTX)); a long answer comes in
    /// pieces with the MI bit, which libnfc joins. The timeout is `ISODEPExchangeBudget` of the ATS's FWT.
    /// Errors map as for Type 2 frames; an answer without a status word is `.invalidResponse`.
    ///
    /// The corresponding C function is `nfc_initiator_transceive_bytes`.
    private func transceiveAPDU(
        _ command: [UInt8], ats: Type4ATS, uid: [UInt8], timeoutMilliseconds: Int
    ) throws(TransportError) -> [UInt8] {
        try device.prepareAPDU()
        let budget = ISODEPExchangeBudget.milliseconds(
            commandBytes: command.count, ats: ats, requested: timeoutMilliseconds)
        let (result, answer) = LibNFCCalls.transceive(
            device.device, command, capacity: 1024, timeoutMilliseconds: Int32(budget + device.linkSlackMilliseconds))
        if result < 0 { try failed(result, uid: uid, frame: false) }
        guard answer.count >= 2 else {
            throw .invalidResponse("\(answer.count)-byte answer '\(hex(answer))' to APDU \(hex(command))")
        }
        return answer
    }

    /// One FeliCa frame (LEN first, no CRC) with easy framing on: libnfc sends InDataExchange `40 01 <frame>`
    /// and returns the card's frame, LEN first (`docs/reference/type3.md` §2.3). Silence is `.noAnswer` when polling
    /// finds the card again, else `.tagLost`; an answer whose LEN is not its length is `.invalidResponse`.
    ///
    /// The corresponding C function is `nfc_initiator_transceive_bytes`.
    private func transceiveFeliCa(_ command: [UInt8], uid: [UInt8], timeoutMilliseconds: Int) throws(TransportError)
        -> [UInt8]
    {
        try device.prepareFeliCaFrame()
        let timeout = timeoutMilliseconds > 0 ? Int32(timeoutMilliseconds + device.linkSlackMilliseconds) : -1
        let (result, answer) = LibNFCCalls.transceive(
            device.device, command, capacity: 512, timeoutMilliseconds: timeout)
        if result < 0 { try failed(result, uid: uid, frame: false) }
        guard let length = answer.first, Int(length) == answer.count else {
            throw .invalidResponse("FeliCa answer '\(hex(answer))' to \(hex(command)) does not match its LEN")
        }
        return answer
    }

    /// Re-activates the tag (HLTA + WUPA, or a field cycle; `LibNFCDevice.reactivate`): its state,
    /// authentication included, resets.
    func reactivate() throws(TransportError) {
        guard try device.reactivate() else { throw .tagLost }
    }

    private func hex(_ bytes: [UInt8]) -> String { Hex.string(bytes) }
}
