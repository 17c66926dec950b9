/// A strict JSON (RFC 8259) parser over UTF-8 bytes that records the line and column of every value.
///
/// Foundation's decoder cannot say where a value was written, and every manifest or template error
/// must name its line and column. Duplicate object keys, trailing commas, comments, NUL bytes and
/// invalid UTF-8 are errors.
public struct JSONScanner {
    /// A syntax error at a position.
    public struct SyntaxError: Error, Sendable, Hashable {
        /// Where the problem is.
        public var position: TextPosition
        /// What is wrong.
        public var message: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line: Int
    private var lineStart = 0
    private var depth = 0

    /// Creates a scanner; `line` is the line number of the first byte (for JSON Lines).
    public init(_ bytes: [UInt8], line: Int = 1) {
        self.bytes = bytes
        self.line = line
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
    }

    /// Parses one complete JSON document (white space around it allowed).
    public static func parse(_ bytes: [UInt8], line: Int = 1) throws(SyntaxError) -> JSONNode {
        var scanner = JSONScanner(bytes, line: line)
        try scanner.validateUTF8()
        scanner.skipWhitespace()
        let node = try scanner.parseValue()
        scanner.skipWhitespace()
        if scanner.index < scanner.bytes.count {
            throw scanner.error("unexpected text after the JSON value")
        }
        return node
    }

    /// The column of `memoOffset` on the line starting at `memoLineStart`, so positions are found in linear time.
    private var memoLineStart = -1
    private var memoOffset = 0
    private var memoColumn = 1

    /// The position of the next byte, counted on from the last position asked for on the same line.
    private var position: TextPosition {
        mutating get {
            if memoLineStart != lineStart || memoOffset > index {
                memoLineStart = lineStart
                memoOffset = lineStart
                memoColumn = 1
            }
            while memoOffset < index {
                if bytes[memoOffset] & 0xC0 != 0x80 { memoColumn += 1 }
                memoOffset += 1
            }
            return TextPosition(line: line, column: memoColumn)
        }
    }

    private func position(at offset: Int) -> TextPosition {
        var column = 1
        var cursor = lineStart
        while cursor < offset && cursor < bytes.count {
            if bytes[cursor] & 0xC0 != 0x80 { column += 1 }
            cursor += 1
        }
        return TextPosition(line: line, column: column)
    }

    private func error(_ message: String, at offset: Int? = nil) -> SyntaxError {
        SyntaxError(position: position(at: offset ?? index), message: message)
    }

    private mutating func validateUTF8() throws(SyntaxError) {
        var offset = index
        var lineNumber = line
        var start = lineStart
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == 0x0A {
                lineNumber += 1
                start = offset + 1
            }
            if byte == 0 {
                throw SyntaxError(
                    position: Self.column(bytes, from: start, to: offset, line: lineNumber), message: "NUL byte")
            }
            let length = UTF8Check.sequenceLength(bytes, at: offset)
            guard length > 0 else {
                throw SyntaxError(
                    position: Self.column(bytes, from: start, to: offset, line: lineNumber), message: "invalid UTF-8")
            }
            offset += length
        }
    }

    private static func column(_ bytes: [UInt8], from start: Int, to offset: Int, line: Int) -> TextPosition {
        var column = 1
        for cursor in start..<offset where bytes[cursor] & 0xC0 != 0x80 { column += 1 }
        return TextPosition(line: line, column: column)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue() throws(SyntaxError) -> JSONNode {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        let start = position
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(start)
        case UInt8(ascii: "["): return try parseArray(start)
        case UInt8(ascii: "\""):
            let (text, columns) = try parseString()
            return JSONNode(kind: .string(text, columns: columns), position: start)
        case UInt8(ascii: "t"):
            try expectWord("true")
            return JSONNode(kind: .bool(true), position: start)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return JSONNode(kind: .bool(false), position: start)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return JSONNode(kind: .null, position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(kind: .number(try parseNumber()), position: start)
        default:
            throw error("unexpected character '\(Self.describe(bytes, at: index))', expected a value")
        }
    }

    /// Two upper-case hex digits for a control character in a message.
    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    private static func describe(_ bytes: [UInt8], at index: Int) -> String {
        let length = max(1, UTF8Check.sequenceLength(bytes, at: index))
        return String(decoding: bytes[index..<min(bytes.count, index + length)], as: UTF8.self)
    }

    private mutating func expectWord(_ word: String) throws(SyntaxError) {
        let utf8 = Array(word.utf8)
        guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw error("unexpected character '\(Self.describe(bytes, at: index))', expected a value")
        }
        index += utf8.count
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > 64 { throw error("nesting deeper than 64 levels") }
    }

    private mutating func parseObject(_ start: TextPosition) throws(SyntaxError) -> JSONNode {
        try enter()
        index += 1
        var members: [JSONNode.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return JSONNode(kind: .object(members), position: start)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error(index < bytes.count ? "expected a key in double quotes" : "unclosed object")
            }
            let keyPosition = position
            let (key, _) = try parseString()
            if members.contains(where: { $0.key == key }) {
                throw SyntaxError(position: keyPosition, message: "duplicate key '\(key)'")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after the key")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONNode.Member(key: key, keyPosition: keyPosition, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unclosed object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return JSONNode(kind: .object(members), position: start)
            }
            throw error("expected ',' or '}'")
        }
    }

    private mutating func parseArray(_ start: TextPosition) throws(SyntaxError) -> JSONNode {
        try enter()
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return JSONNode(kind: .array(elements), position: start)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unclosed array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return JSONNode(kind: .array(elements), position: start)
            }
            throw error("expected ',' or ']'")
        }
    }

    private mutating func parseNumber() throws(SyntaxError) -> String {
        let start = index
        func digits(_ scanner: inout JSONScanner) -> Int {
            let from = scanner.index
            while scanner.index < scanner.bytes.count, (0x30...0x39).contains(scanner.bytes[scanner.index]) {
                scanner.index += 1
            }
            return scanner.index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let intStart = index
        guard digits(&self) > 0 else { throw error("invalid number") }
        if bytes[intStart] == UInt8(ascii: "0"), index - intStart > 1 {
            throw error("leading zero in a number", at: intStart)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("invalid number") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&self) > 0 else { throw error("invalid number") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func parseString() throws(SyntaxError) -> (String, [Int]) {
        let openColumn = position.column
        index += 1
        var scalars = String.UnicodeScalarView()
        var columns: [Int] = []
        var column = openColumn + 1
        while true {
            guard index < bytes.count else { throw error("unclosed string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return (String(scalars), columns)
            }
            if byte < 0x20 { throw error("control character U+00\(Self.hexByte(byte)) inside a string; escape it") }
            if byte == UInt8(ascii: "\\") {
                let escapeColumn = column
                let (scalar, width) = try parseEscape()
                scalars.append(scalar)
                columns.append(escapeColumn)
                column += width
                continue
            }
            if byte < 0x80 {
                scalars.append(Unicode.Scalar(byte))
                columns.append(column)
                column += 1
                index += 1
                continue
            }
            let length = UTF8Check.sequenceLength(bytes, at: index)
            let decoded = String(decoding: bytes[index..<index + length], as: UTF8.self)
            for scalar in decoded.unicodeScalars {
                scalars.append(scalar)
                columns.append(column)
            }
            column += 1
            index += length
        }
    }

    /// Parses `\x` or `\uXXXX` (with surrogate pairs); returns the scalar and the source width.
    private mutating func parseEscape() throws(SyntaxError) -> (Unicode.Scalar, Int) {
        let start = index
        index += 1
        guard index < bytes.count else { throw error("unclosed string") }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""): return ("\"", 2)
        case UInt8(ascii: "\\"): return ("\\", 2)
        case UInt8(ascii: "/"): return ("/", 2)
        case UInt8(ascii: "b"): return ("\u{08}", 2)
        case UInt8(ascii: "f"): return ("\u{0C}", 2)
        case UInt8(ascii: "n"): return ("\n", 2)
        case UInt8(ascii: "r"): return ("\r", 2)
        case UInt8(ascii: "t"): return ("\t", 2)
        case UInt8(ascii: "u"):
            let high = try hex4(start)
            if (0xD800...0xDBFF).contains(high) {
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("unpaired surrogate escape", at: start) }
                index += 2
                let low = try hex4(start)
                guard (0xDC00...0xDFFF).contains(low),
                    let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                else { throw error("unpaired surrogate escape", at: start) }
                return (scalar, 12)
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate escape", at: start) }
            return (scalar, 6)
        default:
            throw error("invalid escape '\\\(Self.describe(bytes, at: index - 1))'", at: start)
        }
    }

    private mutating func hex4(_ start: Int) throws(SyntaxError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("invalid \\u escape", at: start) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x37)
            case 0x61...0x66: digit = UInt32(byte - 0x57)
            default: throw error("invalid \\u escape", at: start)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
