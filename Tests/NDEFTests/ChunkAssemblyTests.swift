import TestSupport
import Testing

@testable import NDEF

/// Chunked records (NDEF 1.0 §2.3.3) are put back together in linear work, shown by counting the bytes
/// the reassembly buffer copied when it moved, never by timing.
@Suite struct ChunkAssemblyTests {
    /// A media record `a/b` whose payload arrives in `pieces`: first chunk `B2`/`A2` (MB CF, TNF 2),
    /// middle chunks `36`/`26` (CF, TNF 6), last chunk `56`/`46` (ME, TNF 6); short form up to 255 bytes.
    static func chunkedMessage(_ pieces: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for (index, piece) in pieces.enumerated() {
            let first = index == 0
            let last = index == pieces.count - 1
            var header: UInt8 = first ? 0x82 : 0x06
            if !last { header |= 0x20 } else { header |= 0x40 }
            let short = piece.count <= 255
            if short { header |= 0x10 }
            out.append(header)
            out.append(first ? 3 : 0)
            if short {
                out.append(UInt8(piece.count))
            } else {
                let count = UInt32(piece.count)
                out += [24, 16, 8, 0].map { UInt8((count >> $0) & 0xFF) }
            }
            if first { out += Array("a/b".utf8) }
            out += piece
        }
        return out
    }

    @Test func chunkedMessageHelperWritesTheDecodeOnlyVector() {
        // The same bytes as "chunked long first chunk" in NDEFMessageDecodingTests, but short throughout.
        #expect(Hex.string(Self.chunkedMessage([[0x01], [0x02, 0x03]])) == "B2 03 01 61 2F 62 01 56 00 02 02 03")
    }

    @Test func manyOneByteChunksReassembleCopyingLessThanTwiceThePayload() throws {
        let payload = (0..<6000).map { UInt8($0 & 0xFF) }
        let bytes = Self.chunkedMessage(payload.map { [$0] })
        let decoded = try NDEFMessage.decodeRecords(bytes, depth: 0)
        #expect(decoded.count == 1)
        let record = try #require(decoded.first)
        #expect(record.record == (try .mime("a/b", payload: payload)))
        #expect(record.chunks == 6000)
        // Geometric growth copies under 2 × 6000 bytes in all; a copy of the buffer at every chunk
        // would copy 6000 × 5999 / 2 ≈ 18 million.
        #expect(record.reassemblyBytesMoved < 2 * payload.count, "moved \(record.reassemblyBytesMoved) bytes")
        #expect(try NDEFMessage(bytes: bytes).records == [try .mime("a/b", payload: payload)])
    }

    @Test func theCounterSeesACopyAtEveryChunkWhenTheBufferIsShared() {
        // The counter measures the buffer, not the code's intent: holding a second reference to the
        // payload across each append forces a copy per chunk, the quadratic reassembly this replaced.
        var assembly = ChunkAssembly(
            format: .media, type: Array("a/b".utf8), identifier: [], firstPayload: [0x00], typeOffset: 3,
            payloadOffset: 6)
        let chunks = 500
        for index in 1..<chunks {
            let shared = assembly.payload
            withExtendedLifetime(shared) { assembly.append([UInt8(index & 0xFF)]) }
        }
        #expect(assembly.chunks == chunks)
        #expect(assembly.payload == (0..<chunks).map { UInt8($0 & 0xFF) })
        #expect(assembly.bytesMoved == chunks * (chunks - 1) / 2)
    }

    @Test func anySplitIntoChunksGivesTheSameRecord() throws {
        var random = SeededGenerator(seed: 0x27_0002)
        let payload = (0..<700).map { _ in UInt8.random(in: 0...255, using: &random) }
        let whole = try NDEFMessage(bytes: NDEFMessage(records: [try .mime("a/b", payload: payload)]).bytes)
        for _ in 0..<50 {
            var pieces: [[UInt8]] = []
            var rest = payload[...]
            while !rest.isEmpty {
                let size = min(rest.count, Int.random(in: 0...300, using: &random))
                pieces.append(Array(rest.prefix(size)))
                rest = rest.dropFirst(size)
            }
            pieces.append([])  // a last chunk may be empty
            #expect(try NDEFMessage(bytes: Self.chunkedMessage(pieces)) == whole)
        }
    }
}
