import Foundation
import JSONReader

/// One record's record JSON object, exactly as `RecordJSON.encode` writes it, for other JSON documents.
///
/// `provision inspect --json` and `provision audit --json` carry these, so a record can be copied out
/// of a report as it is: the `uri` of a tap URL into `verify-url`, or the whole object into
/// `provision ndef encode`, which gives back the record's bytes. Through any `Encoder` it is the plain
/// object (`{"type": "uri", "uri": "…"}`); decoding accepts any JSON value, so a Codable report reads
/// its own output back.
public struct RecordJSONObject: Sendable, Hashable, Codable {
    /// The object as the record JSON writer builds it.
    let value: JSONValue

    /// The object for `record`: its typed form when that re-encodes to the same bytes, else its raw form.
    public init(_ record: NDEFPayload) {
        value = RecordJSON.jsonValue(for: record)
    }

    /// The objects of the records of `message`, in order.
    public static func objects(of message: NDEFMessage) -> [RecordJSONObject] {
        message.records.map(RecordJSONObject.init)
    }

    /// The objects of the records of encoded message `bytes`: none for an empty message (a length-0
    /// NDEF TLV), `nil` when the bytes are not a valid message.
    public static func objects(ofMessage bytes: [UInt8]) -> [RecordJSONObject]? {
        if bytes.isEmpty { return [] }
        return (try? NDEFMessage(bytes: bytes)).map(objects(of:))
    }

    /// The record the object describes, checked as strictly as `RecordJSON.decode` checks it.
    ///
    /// - Throws: `RecordJSONError` with a path relative to the object (`uri`, `titles[0].lang`).
    public func record() throws(RecordJSONError) -> NDEFPayload {
        try RecordJSON.record(from: value, path: "")
    }

    /// The string member `key` (`"type"`, `"uri"`, `"text"`, …); `nil` when absent or not a string.
    public subscript(key: String) -> String? {
        guard case .object(let members) = value, case .string(let text)? = members[key] else { return nil }
        return text
    }

    /// The object as `RecordJSON.encode` prints it: two-space indentation, sorted keys.
    public var rendered: String { value.rendered() }

    /// Encodes the plain JSON object.
    public func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }

    /// Decodes any JSON value (a report reading its own output back).
    public init(from decoder: any Decoder) throws {
        value = try JSONValue(from: decoder)
    }
}
