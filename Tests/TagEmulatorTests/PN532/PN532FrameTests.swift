import NDEF
import TagEmulator
import TestSupport
import Testing

struct PN532FrameTests {
    /// (payload, wire bytes) from `docs/reference/pn532-libnfc.md` §3–§4.
    static let vectors: [(String, String)] = [
        ("D4 02", "00 00 FF 02 FE D4 02 2A 00"),
        ("D5 03 32 01 06 07", "00 00 FF 06 FA D5 03 32 01 06 07 E8 00"),
        ("D4 14 01", "00 00 FF 03 FD D4 14 01 17 00"),
        ("D5 15", "00 00 FF 02 FE D5 15 16 00"),
        ("D4 40 01 30 00", "00 00 FF 05 FB D4 40 01 30 00 BB 00"),
        (
            "D5 4B 01 01 00 44 00 07 04 A1 B2 C3 D4 E5 F6",
            "00 00 FF 0F F1 D5 4B 01 01 00 44 00 07 04 A1 B2 C3 D4 E5 F6 CA 00"
        ),
    ]

    @Test(arguments: vectors)
    func encodesAndDecodesVectors(payloadHex: String, wireHex: String) throws {
        let payload = try #require(Hex.bytes(payloadHex))
        let wire = try #require(Hex.bytes(wireHex))
        #expect(PN532Frame.encode(payload) == wire)
        var decoder = PN532FrameDecoder()
        decoder.append(wire)
        #expect(decoder.next() == .information(payload))
        #expect(decoder.next() == nil)
    }

    @Test func extendedFrameRoundTrips() {
        let payload: [UInt8] = [0xD5, 0x43, 0x00] + (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        let wire = PN532Frame.encode(payload)
        #expect(Array(wire.prefix(8)) == [0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x01, 0x2F, 0xD0])
        var decoder = PN532FrameDecoder()
        decoder.append(wire)
        #expect(decoder.next() == .information(payload))
    }

    @Test func ackAndNackAreRecognised() {
        var decoder = PN532FrameDecoder()
        decoder.append(PN532Frame.ackBytes + PN532Frame.nackBytes)
        #expect(decoder.next() == .ack)
        #expect(decoder.next() == .nack)
        #expect(decoder.next() == nil)
        #expect(PN532Frame.ack.encoded == [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00])
    }

    /// libnfc's wake-up: `55 55` + 14 × `00`, then SAMConfiguration, then GetFirmwareVersion.
    static var wakeUpStream: [UInt8] {
        [0x55, 0x55] + [UInt8](repeating: 0, count: 14) + PN532Frame.encode([0xD4, 0x14, 0x01])
            + PN532Frame.encode([0xD4, 0x02]) + PN532Frame.ackBytes
    }

    static func decodeAll(_ chunks: [[UInt8]]) -> ([PN532Frame], Bool) {
        var decoder = PN532FrameDecoder()
        var frames: [PN532Frame] = []
        for chunk in chunks {
            decoder.append(chunk)
            while let frame = decoder.next() { frames.append(frame) }
        }
        return (frames, decoder.sawWakeUp)
    }

    @Test func dripFeedGivesTheSameFramesAsOneRead() {
        let stream = Self.wakeUpStream
        let expected: [PN532Frame] = [.information([0xD4, 0x14, 0x01]), .information([0xD4, 0x02]), .ack]
        #expect(Self.decodeAll([stream]) == (expected, true))
        #expect(Self.decodeAll(stream.map { [$0] }) == (expected, true))
        var generator = TestSeed.generator()
        for _ in 0..<50 {
            var chunks: [[UInt8]] = []
            var index = 0
            while index < stream.count {
                let size = Int.random(in: 1...7, using: &generator)
                chunks.append(Array(stream[index..<min(index + size, stream.count)]))
                index += size
            }
            #expect(Self.decodeAll(chunks) == (expected, true), "chunks \(chunks.map(\.count)), seed \(TestSeed.value)")
        }
    }

    @Test func everyStrictPrefixWaitsForMore() {
        let wire = PN532Frame.encode([0xD4, 0x40, 0x01, 0x30, 0x00])
        for cut in 0..<(wire.count - 1) {
            var decoder = PN532FrameDecoder()
            decoder.append(wire.prefix(cut))
            #expect(decoder.next() == nil)
        }
    }

    @Test func badChecksumsDropTheFrameAndTheNextOneStillDecodes() {
        var badLength = PN532Frame.encode([0xD4, 0x02])
        badLength[4] ^= 0x01
        var badData = PN532Frame.encode([0xD4, 0x02])
        badData[7] ^= 0x01
        var decoder = PN532FrameDecoder()
        decoder.append(badLength + badData + PN532Frame.encode([0xD4, 0x12, 0x14]))
        #expect(decoder.next() == .information([0xD4, 0x12, 0x14]))
        #expect(decoder.checksumErrors == 2)
    }
}
