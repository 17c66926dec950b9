import Foundation
import JSONReader
import Support

/// How values are spelled in the ledger file so the `sqlite3` shell shows them readably.
///
/// UIDs: upper-case hex without separators (`04A1B2C3D4E5F6`). Digests: lower-case hex.
/// Times: ISO 8601 UTC with milliseconds (`2026-12-02T16:00:00.123Z`). Fields: a JSON object, keys sorted.
enum LedgerFormat {
    /// Upper-case hex of a UID (and of message bytes).
    static func uid(_ bytes: [UInt8]) -> String { HexEncoding.encode(bytes) }

    /// Lower-case hex of a digest.
    static func digest(_ bytes: [UInt8]) -> String { HexEncoding.encode(bytes, lowercase: true) }

    /// Bytes from hex text (either case).
    static func bytes(_ hex: String) throws(LedgerError) -> [UInt8] {
        let characters = Array(hex.utf8)
        guard characters.count.isMultiple(of: 2) else { throw LedgerError(.invalidData, "odd-length hex \(hex)") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else {
                throw LedgerError(.invalidData, "not hex: \(hex)")
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// A stored timestamp.
    static func time(_ date: Date) -> String { LedgerTime.format(date) }

    /// A timestamp read back.
    static func date(_ text: String) throws(LedgerError) -> Date {
        guard let date = LedgerTime.parse(text) else { throw LedgerError(.invalidData, "not a timestamp: \(text)") }
        return date
    }

    /// An optional timestamp read back.
    static func date(_ text: String?) throws(LedgerError) -> Date? {
        guard let text else { return nil }
        return try date(text)
    }

    /// An encoder writing JSON objects with sorted keys.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The fields as a JSON object with sorted keys.
    static func json(_ fields: [String: String], encoder: JSONEncoder = makeEncoder()) throws(LedgerError) -> String {
        do { return String(decoding: try encoder.encode(fields), as: UTF8.self) } catch {
            throw LedgerError(.invalidData, "cannot encode fields: \(error)")
        }
    }

    /// Fields read back from the stored JSON object of strings, parsed by the one JSON reader (`JSONScanner`).
    static func fields(_ json: String) throws(LedgerError) -> [String: String] {
        let node: JSONNode
        do throws(JSONScanner.SyntaxError) { node = try JSONScanner.parse(Array(json.utf8)) } catch {
            throw LedgerError(.invalidData, "fields are not JSON: \(error.message) at \(error.position)")
        }
        guard let members = node.members else {
            throw LedgerError(.invalidData, "fields are \(node.kindName), not a JSON object of strings")
        }
        var fields = [String: String](minimumCapacity: members.count)
        for member in members {
            guard let value = member.value.string else {
                throw LedgerError(.invalidData, "field '\(member.key)' is \(member.value.kindName), not a string")
            }
            fields[member.key] = value
        }
        return fields
    }
}
