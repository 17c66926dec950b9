/// A parsed JSON value without positions: what record JSON reads and writes.
///
/// Object members keep their input order on parsing; the writer sorts keys, so output is stable.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number without fraction or exponent that fits 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Parses one JSON document (RFC 8259) with `JSONScanner`, rejecting duplicate keys.
    ///
    /// - Throws: `JSONScanner.SyntaxError` with the line and column of the problem.
    public static func parse(_ bytes: [UInt8]) throws(JSONScanner.SyntaxError) -> JSONValue {
        JSONValue(try JSONScanner.parse(bytes))
    }

    /// The value of a scanned node: integers without fraction or exponent that fit 64 bits stay exact.
    public init(_ node: JSONNode) {
        switch node.kind {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let text):
            let integral = !text.contains { $0 == "." || $0 == "e" || $0 == "E" }
            if integral, let value = Int64(text) {
                self = .integer(value)
            } else {
                self = .number(Double(text) ?? .nan)  // the scanner accepted RFC 8259 syntax only
            }
        case .string(let text, _): self = .string(text)
        case .array(let elements): self = .array(elements.map(JSONValue.init))
        case .object(let members):
            self = .object(
                Dictionary(members.map { ($0.key, JSONValue($0.value)) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// A short name of the value's kind for error messages.
    public var kind: String {
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
    public func rendered(indent: Int = 0) -> String {
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

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
    public static func quoted(_ text: String) -> String {
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
