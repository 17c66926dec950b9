import NFCTags

/// How the card presents an ISO/IEC 15693 (NFC Forum Type 5) tag, as a PC/SC part 3 reader with a 15693
/// front end does (`docs/reference/type5.md` §3.1–3.4, §3.6); the style decides the UID order, the block number's
/// place and whether the transparent exchange is there (`VPCDReaderStyle`).
///
/// ```
/// ATR                      3B 8F 80 01 80 4F 0C A0 00 00 03 06 0B NN NN 00 00 00 00 TCK (Type5ATR)
/// FF CA 00 00 00           UID, air order (… 04 E0) or display order (E0 04 …) by style, 90 00
/// FF B0 00 bb 00 (P2) or FF B0 bb 00 00 (P1)            Read Single Block 20 → data 90 00 | 63 00
/// FF D6 00 bb Lc d… (P2) or FF D6 bb 00 Lc d… (P1)      Write Single Block 21 → 90 00 | 63 00
///                          the other convention's parameters: 6B 00; the tag's error code is not visible
/// FF C2 00 02 04 8F 02 02 03                            switch to ISO 15693 layer 3 → C0 03 00 90 00 8F 01 00
/// FF C2 00 01 Lc [5F 46 04 µs] 95 <len> <request>       → C0 03 00 90 00 92 01 00 96 02 00 00 97 <len> <answer>
///                          a write-alike whose programming outlasts the timer: C0 03 <DO index> 64 01
/// ```
///
/// The storage-card APDUs send addressed requests (flags `22`). The timer (`5F 46`, µs, LSB first) holds
/// for the rest of the session; before one is set, `iso15693DefaultTimerMicroseconds` applies.
extension VPCDCard {
    /// Whether the tag in the field activated as an ISO/IEC 15693 VICC (an Inventory answer).
    public var isISO15693: Bool { activation?.isISO15693 ?? false }

    /// The UID `FF CA 00 00 00` gives for the tag: an ISO 15693 UID in the style's order.
    func reportedUID(_ tag: any TagEndpoint) -> [UInt8] {
        isISO15693 && style.iso15693UIDAirOrder ? tag.uid.reversed() : tag.uid
    }

    /// `FF B0` and `FF D6` for an ISO 15693 tag, in the style's block-number convention.
    func storageISO15693(_ apdu: [UInt8]) -> [UInt8] {
        guard let storage = Type5StorageAPDU(apdu, style.type5BlockNumber) else { return StatusWord.wrongParameters }
        let address = [0x22] as [UInt8]
        let uid = activation.map { Array($0.uid.reversed()) } ?? []
        switch storage {
        case .read(let block):
            guard case .data(let answer) = exchange(address + [0x20] + uid + [UInt8(block)]), answer.first == 0x00
            else { return StatusWord.failed }
            let data = Array(answer.dropFirst())
            if apdu.count == 5, apdu[4] != 0x00, Int(apdu[4]) != data.count { return StatusWord.wrongLe(data.count) }
            return data + StatusWord.success
        case .update(let block, let data):
            guard case .data(let answer) = exchange(address + [0x21] + uid + [UInt8(block)] + data),
                answer == [0x00]
            else { return StatusWord.failed }
            return StatusWord.success
        }
    }

    /// The answer of a transparent exchange `95` to an ISO 15693 tag; `objectIndex` is the 1-based place of
    /// the `95` object in the APDU (named by `C0` when the tag outlasts the timer).
    func transceiveISO15693(_ command: [UInt8], objectIndex: Int) -> [UInt8] {
        let ok: [UInt8] = [0xC0, 0x03, 0x00, 0x90, 0x00]
        let timeout: [UInt8] = [0xC0, 0x03, UInt8(truncatingIfNeeded: objectIndex), 0x64, 0x01]
        guard case .data(let answer) = exchange(command) else { return timeout + StatusWord.success }
        let writeAlike = command.count >= 2 && ISO15693Request.Command(rawValue: command[1])?.isWriteAlike == true
        if writeAlike, answer.first == 0x00, responseMicroseconds(writing: true) > activeTimerMicroseconds {
            return timeout + StatusWord.success
        }
        return ok + [0x92, 0x01, 0x00, 0x96, 0x02, 0x00, 0x00] + BERDataObject.encode(tag: 0x97, value: answer)
            + StatusWord.success
    }

    /// The timer in force: the session's `5F 46`, else the reader's default.
    var activeTimerMicroseconds: Double { transparentTimerMicroseconds ?? iso15693DefaultTimerMicroseconds }

    /// How long the tag takes to start its answer: t1, plus `tWrite` in whole 302.08 µs steps for a write-alike
    /// (`Type5Timing`).
    func responseMicroseconds(writing: Bool) -> Double {
        let programming = (tag as? any EmulatedTag)?.programmingMicroseconds ?? 0
        let timing = Type5Timing(writeMicroseconds: programming)
        guard writing else { return timing.t1 }
        return timing.t1 + (programming / timing.byteMicroseconds).rounded(.up) * timing.byteMicroseconds
    }

    /// Reads a `5F 46` timer object's value (4 bytes, µs, LSB first).
    static func timerMicroseconds(_ value: [UInt8]) -> Double? {
        guard value.count == 4 else { return nil }
        return Double(value.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * $1.offset) })
    }
}
