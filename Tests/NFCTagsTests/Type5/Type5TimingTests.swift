import NFCTags
import Testing

/// The 26.48 kbit/s airtime model against the worked examples of `docs/reference/type5.md` §1.8.
@Suite struct Type5TimingTests {
    let timing = Type5Timing()

    @Test func frameTimesMatchTheReference() {
        #expect(abs(timing.request(bytes: 3) - 1623.6) < 1)  // Inventory 26 01 00 + CRC: 1.62 ms
        #expect(abs(timing.answer(bytes: 10) - 3926.8) < 1)  // 00 DSFID UID + CRC: 3.93 ms
        #expect(abs(timing.request(bytes: 3) + timing.t1 + timing.answer(bytes: 10) - 5871) < 2)
        // The reference counts 12 request bytes (with CRC) for an addressed Read Single Block, 6.48 ms in all;
        // `22 20 UID bb` is 11 bytes before its CRC, so the frame this tool sends is one byte (302 µs) longer.
        #expect(abs(timing.request(bytes: 10) + timing.t1 + timing.answer(bytes: 5) - 6480) < 5)
    }

    @Test func aWriteWaitsWholeByteStepsOfProgramming() {
        let plain = timing.exchange(request: 15, answer: 1)
        let steps = (5_000 / timing.byteMicroseconds).rounded(.up)
        #expect(abs(timing.write(request: 15, answer: 1) - plain - steps * timing.byteMicroseconds) < 0.001)
    }
}
