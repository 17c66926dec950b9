import NFCTags

/// ISO/IEC 14443-3 type A anticollision and select of a double-size (7-byte) UID, as every emulated type A chip
/// answers it (`docs/reference/type2.md` §3.1, `docs/reference/type4.md` §1.1): one cascade level at a time.
enum Anticollision {
    /// What the tag answers to one frame of a cascade level, and the frame pair's airtime.
    struct Step {
        /// The answer: UID CLn ‖ BCC to ANTICOLLISION, SAK ‖ CRC_A to SELECT.
        var answer: [UInt8]
        /// Reader frame, delays and tag frame, µs.
        var airtime: Double
        /// Whether this was the level's SELECT (the tag moves to the next state).
        var selected: Bool
    }

    /// The answer at cascade `level` (1: `93`, UID 0–2 after the cascade tag `88`, SAK `04`; 2: `95`, UID 3–6 with
    /// the chip's final `sak`) to `frame`; `nil` when the frame is neither that level's ANTICOLLISION nor a SELECT
    /// of this UID (the tag goes back to IDLE or HALT).
    static func step(_ frame: [UInt8], level: Int, uid: [UInt8], sak: UInt8, timing: RFTiming) -> Step? {
        let command: UInt8 = level == 1 ? 0x93 : 0x95
        let bytes = level == 1 ? [0x88, uid[0], uid[1], uid[2]] : [uid[3], uid[4], uid[5], uid[6]]
        let withCheck = bytes + [bytes.reduce(0, ^)]
        if frame == [command, 0x20] {
            let airtime =
                timing.readerFrame(bytes: 2) + timing.readerToTagDelay + timing.tagFrame(bytes: 5)
                + timing.tagToReaderGap
            return Step(answer: withCheck, airtime: airtime, selected: false)
        }
        guard frame.count == 9, frame[0] == command, frame[1] == 0x70, CRCA.isValid(frame),
            Array(frame[2..<7]) == withCheck
        else { return nil }
        let airtime =
            timing.readerFrame(bytes: 9) + timing.readerToTagDelay + timing.tagFrame(bytes: 3) + timing.tagToReaderGap
        return Step(answer: CRCA.appending(to: [level == 1 ? 0x04 : sak]), airtime: airtime, selected: true)
    }
}
