import TagEmulator
import TestSupport
import Testing

/// (payload, wire bytes) vectors: power on, ATR request, a READ BINARY APDU.
private let vectors: [([UInt8], [UInt8])] = [
    ([0x01], [0x00, 0x01, 0x01]),
    ([0x04], [0x00, 0x01, 0x04]),
    ([0xFF, 0xB0, 0x00, 0x04, 0x10], [0x00, 0x05, 0xFF, 0xB0, 0x00, 0x04, 0x10]),
]

@Test(arguments: vectors.indices)
func frameVectorsEncodeAndDecodeBothWays(index: Int) throws {
    let (payload, wire) = vectors[index]
    #expect(VPCDFrameDecoder.encode(payload) == wire)
    var decoder = VPCDFrameDecoder()
    decoder.append(wire)
    #expect(decoder.nextFrame() == payload)
    #expect(decoder.nextFrame() == nil)
    #expect(decoder.bufferedBytes == 0)
}

@Test func emptyAndOversizedPayloadsAreNeverEncoded() {
    #expect(VPCDFrameDecoder.encode([]) == nil)
    #expect(VPCDFrameDecoder.encode(Array(repeating: 0, count: 65536)) == nil)
    #expect(VPCDFrameDecoder.encode(Array(repeating: 0, count: 65535))?.prefix(2) == [0xFF, 0xFF])
}

@Test func everyStrictPrefixNeedsMoreBytesNeverTraps() {
    let whole = vectors.flatMap(\.1)
    let firstLength = vectors[0].1.count
    for cut in 0..<firstLength {
        var decoder = VPCDFrameDecoder()
        decoder.append(whole.prefix(cut))
        #expect(decoder.nextFrame() == nil, "prefix \(cut)")
    }
}

/// Feeds `wire` in the given chunk sizes and collects every frame.
private func decode(_ wire: [UInt8], chunks: [Int]) -> [[UInt8]] {
    var decoder = VPCDFrameDecoder()
    var frames: [[UInt8]] = []
    var offset = 0
    var chunkIndex = 0
    while offset < wire.count {
        let size = chunks.isEmpty ? wire.count : max(1, chunks[chunkIndex % chunks.count])
        chunkIndex += 1
        decoder.append(wire[offset..<min(wire.count, offset + size)])
        offset += size
        while let frame = decoder.nextFrame() { frames.append(frame) }
    }
    return frames
}

@Test func dripFedWholeByteByByteAndRandomSplitsDecodeTheSame() {
    let payloads = vectors.map(\.0) + [Array(0..<200)]
    let wire = payloads.compactMap { VPCDFrameDecoder.encode($0) }.flatMap { $0 }
    #expect(decode(wire, chunks: []) == payloads)
    #expect(decode(wire, chunks: [1]) == payloads)
    var generator = TestSeed.generator()
    for _ in 0..<50 {
        let chunks = (0..<8).map { _ in Int.random(in: 1...9, using: &generator) }
        #expect(decode(wire, chunks: chunks) == payloads, "chunks \(chunks), seed \(TestSeed.value)")
    }
}

@Test func messagesDecodeFromPayloads() {
    #expect(VPCDMessage(payload: [0x00]) == .powerOff)
    #expect(VPCDMessage(payload: [0x01]) == .powerOn)
    #expect(VPCDMessage(payload: [0x02]) == .reset)
    #expect(VPCDMessage(payload: [0x04]) == .atrRequest)
    #expect(VPCDMessage(payload: [0x07]) == .unknownControl(0x07))
    #expect(VPCDMessage(payload: [0xFF, 0xCA]) == .apdu([0xFF, 0xCA]))
    #expect(VPCDMessage(payload: []) == nil)
}
