import Foundation

/// The one encoder of every JSON document `provision` writes (`--json`, `summary.json`, `audit-<when>.json`).
///
/// One convention for all of them (docs/json.md, version 2): snake_case keys, spelled by the encoder's
/// `.convertToSnakeCase` from the Swift names, so no document spells its keys by hand; maps keyed by data
/// (failure classes, phases, audit statuses) go through `DataKeyed`, whose keys the same strategy converts;
/// timestamps are RFC 3339 in UTC with milliseconds (`timestamp`); every document carries `version`.
/// Record JSON inside a document (`RecordJSONObject`) keeps its own keys: it encodes as a dictionary, which
/// the strategy leaves alone, so a record copied out of a report still encodes back to the same bytes.
public enum JSONDocument {
    /// The version every document carries (docs/json.md, "Changes in version 2").
    public static let version = 2

    /// The encoder: snake_case keys, sorted, slashes unescaped, indented when `pretty`.
    public static func encoder(pretty: Bool = true) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` as a document's text, ending with a newline.
    ///
    /// - Throws: `EncodingError` when a value cannot be encoded (a non-finite number).
    public static func text<Value: Encodable>(_ value: Value, pretty: Bool = true) throws -> String {
        String(decoding: try encoder(pretty: pretty).encode(value), as: UTF8.self) + "\n"
    }

    /// RFC 3339 in UTC with milliseconds (`2026-12-07T05:14:03.123Z`): every timestamp of every document.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

/// A map keyed by data (failure classes, phase names, audit statuses), whose keys the document's encoder
/// turns to snake_case like its own (`wrongChip` → `wrong_chip`).
public struct DataKeyed<Value: Encodable>: Encodable {
    /// The entries by their data name (`wrongChip`).
    public var entries: [String: Value]

    /// A map of `entries`.
    public init(_ entries: [String: Value]) { self.entries = entries }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Encodes a keyed container, so the encoder's key strategy applies to the data names.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in entries { try container.encode(value, forKey: Key(stringValue: name)) }
    }
}

extension DataKeyed: Sendable where Value: Sendable {}
