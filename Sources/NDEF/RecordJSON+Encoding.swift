import Foundation
import JSONReader

extension RecordJSON {
    /// Writes a message as record JSON: `{"records": [...]}`, pretty, sorted keys, trailing newline.
    ///
    /// For a message `NDEFMessage(bytes:)` accepts, `decode(encode(message))` gives back the same
    /// records, hence the same bytes. A record that is not valid on its own (built by hand with TNF 6
    /// or 7, or a bad type name) is written in the closest raw form, which `decode` then rejects.
    public static func encode(_ message: NDEFMessage) -> Data {
        let records = JSONValue.array(message.records.map(jsonValue(for:)))
        return Data((JSONValue.object(["records": records]).rendered() + "\n").utf8)
    }

    /// The JSON object for one record: the typed form when it re-encodes to the same bytes, else raw.
    static func jsonValue(for record: NDEFPayload) -> JSONValue {
        if record.typeNameFormat == .empty { return .object(["type": .string("empty")]) }
        var members: [String: JSONValue] = [:]
        if !record.identifier.isEmpty {
            if let text = String(validating: record.identifier, as: UTF8.self), isPlain(text) {
                members["id"] = .string(text)
            } else {
                members["idHex"] = .string(Hex.compact(record.identifier))
            }
        }
        if let content = try? record.content(), let typed = typedMembers(content) {
            let candidate = JSONValue.object(members.merging(typed) { $1 })
            if let rebuilt = try? Self.record(from: candidate, path: "records[0]"), rebuilt == record {
                return candidate
            }
        }
        return .object(members.merging(rawMembers(record)) { $1 })
    }

    /// Text that survives as a JSON string without looking like something else (no control characters).
    private static func isPlain(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    private static func typedMembers(_ content: NDEFRecordContent) -> [String: JSONValue]? {
        switch content {
        case .uri(let uri):
            return ["type": .string("uri"), "uri": .string(uri)]
        case .text(let text):
            var members: [String: JSONValue] = [
                "type": .string("text"), "text": .string(text.text), "lang": .string(text.languageCode),
                "encoding": .string(text.encoding.rawValue),
            ]
            if text.encoding == .utf16 { members["byteOrder"] = .string(text.byteOrder.rawValue) }
            return members
        case .smartPoster(let poster):
            guard poster.otherRecords.isEmpty else { return nil }
            var members: [String: JSONValue] = ["type": .string("smartposter"), "uri": .string(poster.uri)]
            if !poster.titles.isEmpty {
                members["titles"] = .array(
                    poster.titles.map { title in
                        var item: [String: JSONValue] = [
                            "text": .string(title.text), "lang": .string(title.languageCode),
                        ]
                        if title.encoding == .utf16 {
                            item["encoding"] = .string("utf16")
                            item["byteOrder"] = .string(title.byteOrder.rawValue)
                        }
                        return .object(item)
                    })
            }
            if let action = poster.action { members["action"] = .string(action.name) }
            if let size = poster.size { members["size"] = .integer(Int64(size)) }
            if let mediaType = poster.mediaType { members["mediaType"] = .string(mediaType) }
            return members
        case .absoluteURI(let uri, let payload):
            var members: [String: JSONValue] = ["type": .string("absoluteURI"), "uri": .string(uri)]
            if !payload.isEmpty { members["hex"] = .string(Hex.compact(payload)) }
            return members
        case .empty, .wellKnown, .mime, .external, .unknown:
            return nil
        }
    }

    /// The raw form: type name and `hex` payload, by TNF.
    private static func rawMembers(_ record: NDEFPayload) -> [String: JSONValue] {
        let name = String(decoding: record.type, as: UTF8.self)
        let hex = JSONValue.string(Hex.compact(record.payload))
        switch record.typeNameFormat {
        case .nfcWellKnown: return ["type": .string("wellknown"), "name": .string(name), "hex": hex]
        case .media: return ["type": .string("mime"), "mediaType": .string(name), "hex": hex]
        case .absoluteURI: return ["type": .string("absoluteURI"), "uri": .string(name), "hex": hex]
        case .nfcExternal: return ["type": .string("external"), "name": .string(name), "hex": hex]
        case .empty: return ["type": .string("empty")]
        case .unknown, .unchanged, .reserved: return ["type": .string("unknown"), "hex": hex]
        }
    }
}
