/// Every number literal in a JSON text, as written, with the object key it belongs to.
///
/// Parsing JSON into `Double`s would hide how a number was printed (`0.30000000000000004` reads back
/// as a double like any other), so this walks the text itself: strings are skipped whole, and each
/// number token is kept verbatim with the nearest enclosing key (`"p50_ms": 1.5` and
/// `"writtenPages": [4, 5]` both give their key; a number in a top-level array gives `nil`).
public struct JSONNumbers: Sendable {
    /// One number literal.
    public struct Number: Sendable, Hashable, CustomStringConvertible {
        /// The key of the member holding it (directly or through arrays), `nil` at the top level.
        public var key: String?
        /// The literal exactly as written (`12.5`, `-3`, `1e-06`).
        public var text: String

        /// Decimals the literal carries: digits after the point without trailing zeros, less the
        /// exponent (`12.50` → 1, `1e-06` → 6, `2.5E+2` → 0, `300` → 0).
        public var decimalPlaces: Int {
            let lowered = text.lowercased()
            let parts = lowered.split(separator: "e", maxSplits: 1)
            let mantissa = parts.first.map(String.init) ?? lowered
            let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
            var fraction = mantissa.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return max(fraction.count - exponent, 0)
        }

        public var description: String { "\(key ?? "<top>"): \(text)" }
    }

    /// The numbers in document order.
    public let numbers: [Number]

    /// Scans `text` (assumed to be valid JSON).
    public init(_ text: String) {
        var numbers: [Number] = []
        // One entry per open container: the key it belongs to, and for objects the last key read.
        var stack: [(isObject: Bool, key: String?, lastKey: String?)] = []
        var pendingString: String?
        var characters = Array(text.unicodeScalars)[...]
        func currentKey() -> String? {
            guard let top = stack.last else { return nil }
            return top.isObject ? top.lastKey : top.key
        }
        while let scalar = characters.popFirst() {
            switch scalar {
            case "\"":
                var value = ""
                while let next = characters.popFirst(), next != "\"" {
                    if next == "\\", let escaped = characters.popFirst() {
                        value.unicodeScalars.append(next)
                        value.unicodeScalars.append(escaped)
                    } else {
                        value.unicodeScalars.append(next)
                    }
                }
                pendingString = value
            case ":":
                if let key = pendingString, !stack.isEmpty { stack[stack.count - 1].lastKey = key }
                pendingString = nil
            case "{", "[":
                stack.append((isObject: scalar == "{", key: currentKey(), lastKey: nil))
                pendingString = nil
            case "}", "]":
                _ = stack.popLast()
                pendingString = nil
            case "-", "0"..."9":
                var literal = String(scalar)
                while let next = characters.first, "0123456789+-.eE".unicodeScalars.contains(next) {
                    literal.unicodeScalars.append(next)
                    characters.removeFirst()
                }
                numbers.append(Number(key: currentKey(), text: literal))
            default:
                if scalar == "," { pendingString = nil }
            }
        }
        self.numbers = numbers
    }

    /// The numbers with more decimals than `allowed` gives their key; a key `allowed` does not list
    /// counts as allowing none (`[:]` asks for whole numbers only).
    public func excess(_ allowed: [String: Int]) -> [Number] {
        numbers.filter { $0.decimalPlaces > ($0.key.flatMap { allowed[$0] } ?? 0) }
    }
}
