/// A small strict JSON parser (RFC 8259) that reports byte offsets and rejects duplicate keys.
///
/// Foundation's decoders neither report where a syntax error is nor reject a repeated key (which
/// would let `{"uri": "a", "uri": "b"}` pass silently), so record JSON uses this one.
struct JSONParser {
    /// Why and where parsing stopped.
    struct Failure: Error {
        var offset: Int
        var reason: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private static let maximumDepth = 64

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// One value, surrounded only by white space.
    mutating func document() throws(Failure) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw Failure(offset: index, reason: "unexpected text after the value") }
        return value
    }

    /// 1-based line and column (in bytes) of a byte offset.
    func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for (at, byte) in bytes.prefix(offset).enumerated() where byte == 0x0A {
            line += 1
            lineStart = at + 1
        }
        return (line, offset - lineStart + 1)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func parseValue() throws(Failure) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw Failure(offset: index, reason: "unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw Failure(offset: index, reason: "expected a value")
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(Failure) -> JSONValue {
        let expected = Array(word.utf8)
        guard bytes[index...].starts(with: expected) else { throw Failure(offset: index, reason: "expected \(word)") }
        index += expected.count
        return value
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw Failure(offset: index, reason: "nested too deeply") }
    }

    private mutating func parseObject() throws(Failure) -> JSONValue {
        try enter()
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw Failure(offset: index, reason: "expected a quoted key")
            }
            let keyOffset = index
            let key = try parseString()
            guard members[key] == nil else { throw Failure(offset: keyOffset, reason: "duplicate key \"\(key)\"") }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw Failure(offset: index, reason: "expected ':'")
            }
            index += 1
            members[key] = try parseValue()
            skipWhitespace()
            guard index < bytes.count else { throw Failure(offset: index, reason: "unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(members)
            } else {
                throw Failure(offset: index, reason: "expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(Failure) -> JSONValue {
        try enter()
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            items.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw Failure(offset: index, reason: "unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(items)
            } else {
                throw Failure(offset: index, reason: "expected ',' or ']'")
            }
        }
    }

    private mutating func parseString() throws(Failure) -> String {
        let start = index
        index += 1
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw Failure(offset: start, reason: "unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                guard let text = String(validating: out, as: UTF8.self) else {
                    throw Failure(offset: start, reason: "the string is not valid UTF-8")
                }
                return text
            }
            guard byte >= 0x20 else { throw Failure(offset: index, reason: "control character in a string") }
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { throw Failure(offset: start, reason: "unterminated string") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                        throw Failure(offset: index, reason: "a high surrogate needs a low surrogate")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw Failure(offset: index - 6, reason: "invalid low surrogate")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let value = Unicode.Scalar(scalar) else {
                    throw Failure(offset: index - 6, reason: "a lone surrogate is not a character")
                }
                out += Array(String(value).utf8)
            default:
                throw Failure(offset: index - 2, reason: "invalid escape")
            }
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Failure(offset: index, reason: "\\u needs four hex digits") }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
                throw Failure(offset: index, reason: "\\u needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = index
        var integral = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw Failure(offset: start, reason: "invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw Failure(offset: start, reason: "invalid number")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw Failure(offset: start, reason: "invalid number")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text) else { throw Failure(offset: start, reason: "invalid number") }
        return .number(value)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
