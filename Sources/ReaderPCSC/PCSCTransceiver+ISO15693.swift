import NDEF
import NFCTags

/// An ISO/IEC 15693 (Type 5) tag through a PC/SC reader (`docs/reference/type5.md` §3.2–3.4): the reader adds the
/// CRC and the framing, so a request is `flags cmd [UID] params` as `Type5Tag` builds it.
///
/// ```
/// acr1552u, omnikey  FF C2 00 01 Lc [5F 46 04 20 4E 00 00] 95 <len> <request>  → … 97 <len> <answer> 90 00
///                    (timer 20 ms before every write-alike, or the reader's default timer cuts the write off)
/// storage, plain     Read Single Block 20  → FF B0 (block in P1 or P2 by style) Le 00 → data 90 00 → 00 data
///                    Write Single Block 21 → FF D6 … Lc data                        → 90 00      → 00
///                    anything else: refused before it is sent (Lock Block, system information, …)
/// ```
///
/// Through `FF B0`/`FF D6` the tag's error code is not visible: the reader's `63 00` is reported as NAK `0`.
extension PCSCTransceiver {
    /// The timer object's value before a write-alike: ISO 15693's 20 ms worst case (§3.4).
    static let iso15693WriteTimerMicroseconds: UInt32 = 20_000

    /// Sends one ISO 15693 request the way the style can and returns the tag's answer (flags byte first).
    func transceiveISO15693(_ request: [UInt8]) throws(TransportError) -> [UInt8] {
        guard let parsed = ISO15693Request(frame: request) else {
            throw .invalidResponse("not an ISO 15693 request: \(Hex.string(request))")
        }
        let writes = ISO15693Request.Command(rawValue: parsed.command)?.isWriteAlike ?? false
        if writes { uidCheckDue = true }
        if style.reachesRawISO15693 {
            return try transparentExchange(
                request, timerMicroseconds: writes ? Self.iso15693WriteTimerMicroseconds : nil)
        }
        let convention = style.type5BlockNumber
        let option = parsed.flags.contains(.option)
        switch (ISO15693Request.Command(rawValue: parsed.command), parsed.parameters.count) {
        case (.readSingleBlock, 1) where !option:
            guard let apdu = Type5StorageAPDU.read(block: Int(parsed.parameters[0])).bytes(convention) else {
                throw .invalidResponse("block out of range")
            }
            return [0x00] + (try transmitChecked(apdu))
        case (.writeSingleBlock, let count) where count >= 2:
            let update = Type5StorageAPDU.update(block: Int(parsed.parameters[0]), data: Array(parsed.parameters[1...]))
            guard let apdu = update.bytes(convention) else { throw .invalidResponse("block out of range") }
            _ = try transmitChecked(apdu)
            return [0x00]
        default:
            throw .transport(
                "this PC/SC reader (style \(style)) has no raw path to ISO 15693: command "
                    + "\(Hex.string([parsed.command]))h cannot be sent")
        }
    }
}
