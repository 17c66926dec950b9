import Foundation
import NDEF
import TestSupport
import Testing

/// Record JSON objects inside other JSON documents (`inspect --json`, audit reports).
@Suite struct RecordJSONObjectTests {
    /// JSON bytes with sorted keys, so documents written by different writers compare.
    private func canonical(_ data: Data) throws -> Data {
        try JSONSerialization.data(withJSONObject: try JSONSerialization.jsonObject(with: data), options: [.sortedKeys])
    }

    @Test(arguments: Vectors.all)
    func objectsThroughJSONEncoderAreTheRecordJSONOfTheMessage(vector: MessageVector) throws {
        let message = try NDEFMessage(bytes: try #require(Hex.bytes(vector.hex)))
        let objects = RecordJSONObject.objects(of: message)
        let encoded = try JSONEncoder().encode(["records": objects])
        #expect(try canonical(encoded) == (try canonical(RecordJSON.encode(message))))
        #expect(try RecordJSON.decode(encoded) == message)
        #expect(try objects.map { try $0.record() } == message.records)
    }

    @Test func objectsDecodeBackFromTheirOwnJSON() throws {
        let message = NDEFMessage(records: [
            .uri("https://example.com/a?b=1", identifier: Array("u".utf8)),
            try .text("é", languageCode: "fr", encoding: .utf16, byteOrder: .bigEndian),
            try .smartPoster(NDEFSmartPoster(uri: "tel:1", size: 4_294_967_295)),
            .unknown(payload: [0x00, 0xFF], identifier: [0x0A]),
            .empty,
        ])
        let objects = RecordJSONObject.objects(of: message)
        let copy = try JSONDecoder().decode([RecordJSONObject].self, from: try JSONEncoder().encode(objects))
        #expect(copy == objects)
        #expect(NDEFMessage(records: try copy.map { try $0.record() }) == message)
    }

    @Test func stringMembersCanBeReadDirectly() {
        let object = RecordJSONObject(.uri("https://example.com/t/1?c=2"))
        #expect(object["type"] == "uri")
        #expect(object["uri"] == "https://example.com/t/1?c=2")
        #expect(object["text"] == nil)
        #expect(object.rendered == "{\n  \"type\": \"uri\",\n  \"uri\": \"https://example.com/t/1?c=2\"\n}")
    }

    @Test func messageBytesGiveObjectsNoneOrNil() throws {
        let bytes = NDEFMessage(records: [.uri("https://a"), .empty]).bytes
        #expect(RecordJSONObject.objects(ofMessage: bytes)?.map { $0["type"] } == ["uri", "empty"])
        #expect(RecordJSONObject.objects(ofMessage: [])?.isEmpty == true)
        #expect(RecordJSONObject.objects(ofMessage: [0xD1, 0x01]) == nil)
    }

    @Test func aBadObjectNamesThePathInsideIt() throws {
        let object = try JSONDecoder().decode(RecordJSONObject.self, from: Data(#"{"type": "uri"}"#.utf8))
        #expect(throws: RecordJSONError(path: "uri", reason: "missing")) { try object.record() }
    }
}
