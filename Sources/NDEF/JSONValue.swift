import Foundation

/// A parsed JSON value, kept in a form that lets the record JSON reader name exact paths.
///
/// Object members keep their input order on parsing; the writer sorts keys, so output is stable.
enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses JSON text (RFC 8259), rejecting duplicate keys; errors give line and column.
    static func parse(_ data: Data) -> Result<JSONValue, RecordJSONError> {
        var parser = JSONParser(Array(data))
        do throws(JSONParser.Failure) {
            return .success(try parser.document())
        } catch {
            let (line, column) = parser.position(of: error.offset)
            return .failure(
                RecordJSONError(path: "", reason: "not valid JSON at line \(line), column \(column): \(error.reason)"))
        }
    }

    /// A short name of the value's kind for error messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Pretty JSON: two-space indentation, sorted keys, `"key": value`, no escaped slashes.
    func rendered(indent: Int = 0) -> String {
        let pad = String(repeating: " ", count: indent)
        let inner = String(repeating: " ", count: indent + 2)
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value): return Self.quoted(value)
        case .array(let items):
            guard !items.isEmpty else { return "[]" }
            return "[\n" + items.map { inner + $0.rendered(indent: indent + 2) }.joined(separator: ",\n") + "\n\(pad)]"
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            let lines = members.keys.sorted().map { key in
                inner + Self.quoted(key) + ": " + (members[key] ?? .null).rendered(indent: indent + 2)
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(pad)}"
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
