import Foundation
import JSONReader

extension RecordJSON {
    /// Reads the members of one JSON object, remembering which keys were used so unknown keys are
    /// reported, and producing errors that name the member's path.
    struct Fields {
        let path: String
        let members: [String: JSONValue]
        private(set) var used: Set<String> = []

        init(_ value: JSONValue, path: String) throws(RecordJSONError) {
            guard case .object(let members) = value else {
                throw RecordJSONError(path: path, reason: "expected an object, got \(value.kind)")
            }
            self.path = path
            self.members = members
        }

        func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

        func has(_ key: String) -> Bool { members[key] != nil }

        mutating func string(_ key: String) throws(RecordJSONError) -> String? {
            used.insert(key)
            guard let value = members[key] else { return nil }
            guard case .string(let text) = value else {
                throw RecordJSONError(path: at(key), reason: "expected a string, got \(value.kind)")
            }
            return text
        }

        mutating func requiredString(_ key: String) throws(RecordJSONError) -> String {
            guard let text = try string(key) else { throw RecordJSONError(path: at(key), reason: "missing") }
            return text
        }

        mutating func integer(_ key: String, in range: ClosedRange<Int64>) throws(RecordJSONError) -> Int64? {
            used.insert(key)
            guard let value = members[key] else { return nil }
            guard case .integer(let number) = value, range.contains(number) else {
                throw RecordJSONError(
                    path: at(key), reason: "expected a whole number in \(range.lowerBound)...\(range.upperBound)")
            }
            return number
        }

        mutating func array(_ key: String) throws(RecordJSONError) -> [JSONValue]? {
            used.insert(key)
            guard let value = members[key] else { return nil }
            guard case .array(let items) = value else {
                throw RecordJSONError(path: at(key), reason: "expected an array, got \(value.kind)")
            }
            return items
        }

        /// Bytes from exactly one of the given keys among `hex`, `text` and `base64`.
        mutating func data(from keys: [String], required: Bool) throws(RecordJSONError) -> [UInt8]? {
            let present = keys.filter { has($0) }
            guard present.count <= 1 else {
                throw RecordJSONError(path: path, reason: "give only one of \(present.joined(separator: ", "))")
            }
            guard let key = present.first else {
                if required {
                    throw RecordJSONError(
                        path: at(keys[0]), reason: "missing (give one of \(keys.joined(separator: ", ")))")
                }
                return nil
            }
            let text = try requiredString(key)
            switch key {
            case "hex":
                guard let bytes = Hex.bytes(text) else { throw RecordJSONError(path: at(key), reason: "not hex") }
                return bytes
            case "base64":
                guard let data = Data(base64Encoded: text) else {
                    throw RecordJSONError(path: at(key), reason: "not base64")
                }
                return Array(data)
            default:
                return Array(text.utf8)
            }
        }

        /// The record ID from `id` (text) or `idHex`; empty when neither is given.
        mutating func identifier() throws(RecordJSONError) -> [UInt8] {
            guard !(has("id") && has("idHex")) else {
                throw RecordJSONError(path: path, reason: "give only one of id, idHex")
            }
            if let text = try string("id") {
                guard text.utf8.count <= 255 else {
                    throw RecordJSONError(path: at("id"), reason: "longer than 255 bytes")
                }
                return Array(text.utf8)
            }
            if let text = try string("idHex") {
                guard let bytes = Hex.bytes(text) else { throw RecordJSONError(path: at("idHex"), reason: "not hex") }
                guard bytes.count <= 255 else {
                    throw RecordJSONError(path: at("idHex"), reason: "longer than 255 bytes")
                }
                return bytes
            }
            return []
        }

        /// Rejects keys that were never read.
        func rejectUnknownKeys() throws(RecordJSONError) {
            if let key = members.keys.sorted().first(where: { !used.contains($0) }) {
                throw RecordJSONError(path: at(key), reason: "unknown key")
            }
        }
    }
}
