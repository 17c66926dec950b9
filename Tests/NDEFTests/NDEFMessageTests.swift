import NDEF
import TestSupport
import Testing

@Suite struct NDEFMessageTests {
    @Test func vectorTableHasAtLeastSixtyVectors() {
        #expect(Vectors.all.count >= 60)
        #expect(Vectors.uriPrefixes.count == 36)
    }

    @Test(arguments: Vectors.all)
    func decodesVector(vector: MessageVector) throws {
        let bytes = try #require(Hex.bytes(vector.hex))
        let message = try NDEFMessage(bytes: bytes)
        #expect(message.records.count == vector.contents.count)
        #expect(try message.records.map { try $0.content() } == vector.contents)
        #expect(message.records.map(\.identifier) == vector.identifiers)
    }

    @Test(arguments: Vectors.all)
    func encodesVector(vector: MessageVector) throws {
        let bytes = try #require(Hex.bytes(vector.hex))
        var records: [NDEFPayload] = []
        for (content, id) in zip(vector.contents, vector.identifiers) {
            records.append(try NDEFPayload(content: content, identifier: id))
        }
        let message = NDEFMessage(records: records)
        #expect(Hex.string(message.bytes) == Hex.string(bytes))
        #expect(message.length == bytes.count)
    }

    @Test func encoderSetsFlagsFromPosition() {
        let one = NDEFPayload.unknown(payload: [])
        let bytes = NDEFMessage(records: [one, one, one]).bytes
        #expect(bytes == [0x95, 0x00, 0x00, 0x15, 0x00, 0x00, 0x55, 0x00, 0x00])
    }

    @Test func encoderNeverWritesMoreThan255TypeBytes() {
        let record = NDEFPayload(
            format: .unknown, type: [], identifier: Array(repeating: 0x41, count: 300), payload: [])
        let message = NDEFMessage(records: [record])
        #expect(message.bytes.count == 4 + 255)
        #expect(message.length == message.bytes.count)
    }

    @Test func randomMessagesRoundTrip() throws {
        var random = SeededGenerator(seed: 0x5EED_0001)
        for _ in 0..<400 {
            let message = NDEFMessage(
                records: (0..<Int.random(in: 1...4, using: &random)).map { _ in
                    RandomRecords.record(using: &random)
                })
            let bytes = message.bytes
            #expect(bytes.count == message.length)
            let decoded = try NDEFMessage(bytes: bytes)
            #expect(decoded == message)
        }
    }
}
