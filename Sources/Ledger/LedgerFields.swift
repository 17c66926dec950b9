import Foundation

/// Reads the `fields_json` column (a flat JSON object of strings) without `JSONDecoder`.
///
/// Every claim reads one row's fields; the Codable decoder was the largest CPU cost of a claim. This
/// reader takes the shape the ledger writes (objects of string values, any whitespace, every JSON
/// escape) and returns `nil` for anything else, which the caller then hands to `JSONDecoder` for its
/// exact answer or error.
enum LedgerFields {
    /// The object's members, or `nil` when `json` is not a flat object of strings.
    static func decode(_ json: String) -> [String: String]? {
        var json = json
        return json.withUTF8 { bytes -> [String: String]? in
            var reader = Reader(bytes: bytes)
            return reader.object()
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func object() -> [String: String]? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [String: String] = [:]
            if take(UInt8(ascii: "}")) { return atEnd() ? members : nil }
            repeat {
                guard let key = string(), take(UInt8(ascii: ":")), let value = string(),
                    members.updateValue(value, forKey: key) == nil
                else { return nil }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}")) && atEnd() ? members : nil
        }

        /// Skips whitespace, then consumes `byte` if it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func atEnd() -> Bool {
            skipWhitespace()
            return index == bytes.count
        }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        /// A string literal; escapes other than the simple ones (`\uXXXX`) give `nil` (left to the decoder).
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            var plain = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    return plain ? String(decoding: slice, as: UTF8.self) : unescape(slice)
                }
                if byte < 0x20 { return nil }
                if byte == UInt8(ascii: "\\") {
                    plain = false
                    index += 1
                }
                index += 1
            }
            return nil
        }

        func unescape(_ slice: UnsafeBufferPointer<UInt8>) -> String? {
            var out: [UInt8] = []
            out.reserveCapacity(slice.count)
            var i = 0
            while i < slice.count {
                guard slice[i] == UInt8(ascii: "\\") else {
                    out.append(slice[i])
                    i += 1
                    continue
                }
                guard i + 1 < slice.count else { return nil }
                switch slice[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(slice[i + 1])
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                default: return nil
                }
                i += 2
            }
            return String(validating: out, as: UTF8.self)
        }
    }
}
