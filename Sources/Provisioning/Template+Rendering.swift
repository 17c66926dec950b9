import Foundation
import JSONReader
import NDEF
import NFCTags
import Support

extension Template {
    /// The value of a name for a row without filters (for `unique`): a field or a built-in known before writing.
    public func value(named name: String, row: JobRow) -> String? {
        value(source: Placeholder.source(for: name), row: row)
    }

    /// The unfiltered value of a resolved name (`Placeholder.source(for:)`) for a row, as `value(named:row:)`.
    func value(source: Placeholder.Source?, row: JobRow) -> String? {
        switch source {
        case .serial: serial.value(forRow: row.row)
        case .row: String(row.row)
        case .job: job
        case .field(let field): row.fields[field]
        case .uid, .timestamp, .mac, .mirror, .dynamic, nil: nil
        }
    }

    /// The rendered value of one placeholder for a row; `late == nil` uses `LateBound.sizing`.
    public func value(of placeholder: Placeholder, row: JobRow, late: LateBound?) throws(JobInputError) -> String {
        var value: String
        switch placeholder.source {
        case .field(let name):
            if let field = row.fields[name] {
                value = field
            } else if placeholder.hasDefault {
                value = ""
            } else {
                throw JobInputError(
                    .renderFailed, file: file, position: placeholder.position, row: row.row,
                    "no field '\(name)' in this row")
            }
        case .serial:
            guard let text = serial.value(forRow: row.row) else {
                throw JobInputError(
                    .renderFailed, file: file, position: placeholder.position, row: row.row,
                    "the serial number overflows")
            }
            value = text
        case .row: value = String(row.row)
        case .job: value = job
        case .uid: value = late?.uidText ?? sizingUIDText
        case .timestamp: value = late?.timestampText ?? LateBound.sizingTimestampText
        case .mirror(let kind): value = kind.placeholder(marked: late?.marksMirror ?? false)
        case .dynamic(let token): value = token.filler(marked: late?.markedDynamic == token)
        case .mac(let keyID, let inputs, let setting):
            value = try mac(placeholder, key: keyID, inputs: inputs, setting: setting, row: row, late: late)
        }
        for filter in placeholder.filters { value = filter.apply(value) }
        return value
    }

    /// A `{{mac:…}}` value: the MAC under the loaded key, or (sizing, `late == nil`, no key loaded) a
    /// run of `0` as long as the real MAC.
    private func mac(
        _ placeholder: Placeholder, key keyID: String, inputs: [String], setting: URLMAC, row: JobRow, late: LateBound?
    ) throws(JobInputError) -> String {
        guard let key = keys[keyID] else {
            guard late == nil else {
                throw JobInputError(
                    .renderFailed, file: file, position: placeholder.position, row: row.row,
                    "key '\(keyID)' is not loaded")
            }
            return String(repeating: "0", count: setting.renderedLength)
        }
        var fields: [String] = []
        for name in inputs {
            switch name {
            case "uid": fields.append(late?.uidText ?? sizingUIDText)
            case "timestamp": fields.append(late?.timestampText ?? LateBound.sizingTimestampText)
            default:
                guard let text = value(named: name, row: row) else {
                    throw JobInputError(
                        .renderFailed, file: file, position: placeholder.position, row: row.row,
                        "no field '\(name)' for the mac in this row")
                }
                fields.append(text)
            }
        }
        do {
            return try setting.render(key: key, job: job, fields: fields)
        } catch {
            throw JobInputError(
                .renderFailed, file: file, position: placeholder.position, row: row.row,
                "the mac's key could not compute it: \(error)")
        }
    }

    /// Renders the record JSON for a row (placeholders filled in, JSON-escaped); `late == nil` sizes
    /// late-bound values at their maximum.
    public func renderRecordJSON(row: JobRow, late: LateBound?) throws(JobInputError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        try write(root, row: row, late: late, into: &out)
        return out
    }

    private func write(_ node: Node, row: JobRow, late: LateBound?, into out: inout [UInt8]) throws(JobInputError) {
        switch node {
        case .raw(let text):
            out.append(contentsOf: text.utf8)
        case .text(let text):
            var rendered = ""
            for segment in text.segments {
                switch segment {
                case .literal(let literal): rendered += literal
                case .placeholder(let placeholder): rendered += try value(of: placeholder, row: row, late: late)
                }
            }
            Self.writeString(rendered, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                try write(element, row: row, late: late, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                try write(member.value, row: row, late: late, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `text` as a JSON string literal (`JSONString`).
    static func writeString(_ text: String, into out: inout [UInt8]) { JSONString.append(text, to: &out) }

    /// The position in the template of a record JSON path such as `records[1].uri` or `[0].text`.
    public func position(ofPath path: String) -> TextPosition {
        resolve(path: path).node.position
    }

    /// The template node at a record JSON path, and whether the whole path was found.
    func resolve(path: String) -> (node: JSONNode, complete: Bool) {
        var node = tree
        var tokens: [String] = []
        var current = ""
        for character in path {
            switch character {
            case ".", "[", "]":
                if !current.isEmpty { tokens.append(current) }
                current = ""
            default: current.append(character)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        for (index, token) in tokens.enumerated() {
            if let elements = node.elements, let number = Int(token), elements.indices.contains(number) {
                node = elements[number]
            } else if let child = node[token] {
                node = child
            } else if index == 0, token == "records", node.elements != nil {
                continue
            } else {
                return (node, false)
            }
        }
        return (node, true)
    }

    /// Whether any string in the subtree holds a placeholder.
    static func hasPlaceholder(_ node: JSONNode) -> Bool {
        switch node.kind {
        case .string(let text, _): text.contains("{{")
        case .array(let elements): elements.contains { hasPlaceholder($0) }
        case .object(let members): members.contains { hasPlaceholder($0.value) }
        case .null, .bool, .number: false
        }
    }
}
