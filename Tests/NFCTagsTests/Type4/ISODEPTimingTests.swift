import NFCTags
import Testing

@Suite struct ISODEPTimingTests {
    let timing = ISODEPTiming()
    /// One bit period at 106 kbit/s, written out (128 / 13.56 MHz).
    let bit = 128.0 / 13.56

    @Test func framesFollowTheReaderAndTagFrameFormulas() {
        // docs/reference/type4.md §5.4: a SELECT AID I-block (16 bytes) takes 1.38 ms, a 90 00 answer 0.44 ms.
        #expect(abs(timing.rf.readerFrame(bytes: 16) - 147 * bit) < 0.001)
        #expect(abs(timing.rf.readerFrame(bytes: 16) - 1_387.6) < 1)
        #expect(abs(timing.rf.tagFrame(bytes: 5) - 47 * bit) < 0.001)
    }

    @Test(arguments: [
        (UInt8(0), 16), (1, 24), (2, 32), (3, 40), (4, 48), (5, 64), (6, 96), (7, 128), (8, 256), (12, 256),
    ])
    func frameSizeCodes(code: UInt8, size: Int) {
        #expect(ISODEPTiming.frameSize(code: code) == size)
    }

    @Test func blocksSplitToFrameSizeLessThreeBytes() {
        #expect(timing.informationBytes(frameSize: 128) == 125)
        #expect(timing.blocks(bytes: 245, frameSize: 128) == [125, 120])
        #expect(timing.blocks(bytes: 125, frameSize: 128) == [125])
        #expect(timing.blocks(bytes: 0, frameSize: 128) == [0])
        #expect(timing.commandBlocks(bytes: 260) == 3)
        #expect(timing.responseBlocks(bytes: 258) == 2)
        var withCID = timing
        withCID.usesCID = true
        #expect(withCID.blocks(bytes: 250, frameSize: 128) == [124, 124, 2])
    }

    @Test func singleFrameExchangeIsOneRoundTripWithProcessing() {
        let gap = 1172.0 / 13.56
        let delay = (9.0 * 128 + 84) / 13.56
        // SELECT AID: PCB + 13 + CRC = 16 bytes; 90 00: PCB + 2 + CRC = 5 bytes.
        let expected = 147 * bit + delay + 1_000 + 47 * bit + gap
        #expect(abs(timing.exchange(command: 13, response: 2, processing: 1_000) - expected) < 0.001)
    }

    @Test func chainedExchangeAddsAnAcknowledgedRoundTripPerExtraBlock() {
        let gap = 1172.0 / 13.56
        let delay = (9.0 * 128 + 84) / 13.56
        let ack = 3
        // 245-byte APDU: I(125) → R(ACK), I(120) → processing → I(2 bytes SW).
        let first = Double(9 * 128 + 3) * bit + delay + Double(9 * ack + 2) * bit + gap
        let last = Double(9 * 123 + 3) * bit + delay + 8_000 + Double(9 * 5 + 2) * bit + gap
        #expect(abs(timing.exchange(command: 245, response: 2, processing: 8_000) - (first + last)) < 0.001)
        // A 258-byte answer to a reader with FSD 256: I(253) then R(ACK) → I(5).
        let read = timing.exchange(command: 5, response: 258, processing: 0)
        let expectedRead =
            Double(9 * 8 + 3) * bit + delay + Double(9 * 256 + 2) * bit + gap
            + Double(9 * ack + 3) * bit + delay + Double(9 * 8 + 2) * bit + gap
        #expect(abs(read - expectedRead) < 0.001)
    }

    @Test func processingAndWaitingTimes() {
        #expect(timing.processing(writeFrames: 0) == 1_000)
        #expect(timing.processing(writeFrames: 2) == 9_000)
        // FWT = 256 · 16 / fc · 2^FWI: 38.66 ms for FWI 7 (§5.4), 19.33 ms for FWI 6.
        #expect(abs(ISODEPTiming.frameWaitingMicroseconds(integer: 7) - 38_664.3) < 0.5)
        #expect(abs(ISODEPTiming.frameWaitingMicroseconds(integer: 6) - 19_332.2) < 0.5)
        #expect(abs(ISODEPTiming.frameWaitingMicroseconds(integer: 15) - 4_833.0) < 0.5)
    }

    @Test func activationAddsRATSAndTheStartupGuardTime() {
        let delay = (9.0 * 128 + 84) / 13.56
        // RATS E0 80 + CRC (4 bytes), ATS 6 + CRC (8 bytes), SFGT 604 µs with SFGI 1.
        let rats = Double(9 * 4 + 3) * bit + delay + Double(9 * 8 + 2) * bit + 2 * 4096 / 13.56
        #expect(
            abs(timing.activation(atsLength: 6, startupFrameGuardInteger: 1) - (timing.rf.activation + rats)) < 0.001)
        #expect(
            timing.rats(atsLength: 6, startupFrameGuardInteger: 0)
                < timing.rats(atsLength: 6, startupFrameGuardInteger: 1))
    }
}
