import NDEF

/// A template compiled once into the records it builds, so a row renders straight into NDEF payloads
/// without writing record JSON text and parsing it back.
///
/// Only the common shapes compile: a non-empty list of `uri` records (keys `type`, `uri`, `id`) and
/// `text` records (keys `type`, `text`, `lang`, `encoding`, `id`), every value a string and every
/// `type` a literal. Any other template has no plan and always takes the record JSON path.
///
/// The plan gives the same message as the record JSON path or none: `records(row:late:)` returns
/// `nil` whenever the row might not encode exactly as `RecordJSON.decode` would build it (a render
/// error, a control character or a non-ASCII byte near the start of a URI, a language code that is
/// not 1–63 printable ASCII bytes, an encoding other than `utf8`, an ID over 255 bytes), and the
/// caller then takes the record JSON path, which produces the message or the error for that row.
struct TemplatePlan: Sendable {
    /// One compiled record: the string values it reads, as template text.
    enum Record: Sendable {
        case uri(uri: TemplateText, id: TemplateText?)
        case text(text: TemplateText, lang: TemplateText?, encoding: TemplateText?, id: TemplateText?)
    }

    /// The records in message order.
    let records: [Record]

    /// Compiles a template tree; `nil` when it has a shape the plan does not cover.
    init?(_ root: Template.Node) {
        let items: [Template.Node]
        switch root {
        case .array(let elements):
            items = elements
        case .object(let members):
            guard members.count == 1, members[0].key == "records", case .array(let elements) = members[0].value
            else { return nil }
            items = elements
        default:
            return nil
        }
        guard !items.isEmpty else { return nil }
        var records: [Record] = []
        for item in items {
            guard let record = Self.record(item) else { return nil }
            records.append(record)
        }
        self.records = records
    }

    private static func record(_ node: Template.Node) -> Record? {
        guard case .object(let members) = node else { return nil }
        var strings: [String: TemplateText] = [:]
        for member in members {
            guard case .text(let text) = member.value, strings[member.key] == nil else { return nil }
            strings[member.key] = text
        }
        guard let type = strings["type"], type.segments.count == 1, case .literal(let kind) = type.segments[0]
        else { return nil }
        let keys = Set(strings.keys)
        switch kind {
        case "uri":
            guard let uri = strings["uri"], keys.isSubset(of: ["type", "uri", "id"]) else { return nil }
            return .uri(uri: uri, id: strings["id"])
        case "text":
            guard let text = strings["text"], keys.isSubset(of: ["type", "text", "lang", "encoding", "id"]) else {
                return nil
            }
            return .text(text: text, lang: strings["lang"], encoding: strings["encoding"], id: strings["id"])
        default:
            return nil
        }
    }

    /// The records for a row, or `nil` when the record JSON path must decide (see the type's notes).
    func records(for template: Template, row: JobRow, late: LateBound?) -> [NDEFPayload]? {
        var out: [NDEFPayload] = []
        out.reserveCapacity(records.count)
        var scratch: [UInt8] = []
        scratch.reserveCapacity(128)
        for record in records {
            switch record {
            case .uri(let uri, let id):
                guard let identifier = Self.identifier(id, template, row, late, &scratch),
                    template.renderBytes(uri, row: row, late: late, into: &scratch),
                    let payload = Self.uriPayload(scratch)
                else { return nil }
                out.append(
                    NDEFPayload(format: .nfcWellKnown, type: Self.uriType, identifier: identifier, payload: payload))
            case .text(let text, let lang, let encoding, let id):
                guard let identifier = Self.identifier(id, template, row, late, &scratch) else { return nil }
                if let encoding {
                    guard template.renderBytes(encoding, row: row, late: late, into: &scratch),
                        scratch.elementsEqual("utf8".utf8)
                    else { return nil }
                }
                var payload: [UInt8] = []
                payload.reserveCapacity(128)
                payload.append(0)
                if let lang {
                    guard template.renderBytes(lang, row: row, late: late, into: &scratch) else { return nil }
                    payload += scratch
                } else {
                    payload += "en".utf8
                }
                let languageCount = payload.count - 1
                guard (1...63).contains(languageCount), payload.dropFirst().allSatisfy({ $0 > 0x20 && $0 < 0x7F })
                else { return nil }
                payload[0] = UInt8(languageCount)
                guard template.renderBytes(text, row: row, late: late, into: &scratch) else { return nil }
                payload += scratch
                out.append(
                    NDEFPayload(format: .nfcWellKnown, type: Self.textType, identifier: identifier, payload: payload))
            }
        }
        return out
    }

    /// The `id` bytes (empty without one); `nil` when it cannot render or is over 255 bytes.
    private static func identifier(
        _ id: TemplateText?, _ template: Template, _ row: JobRow, _ late: LateBound?, _ scratch: inout [UInt8]
    ) -> [UInt8]? {
        guard let id else { return [] }
        guard template.renderBytes(id, row: row, late: late, into: &scratch), scratch.count <= 255 else { return nil }
        return scratch
    }

    /// The record types `U` and `T`, shared by every row's records.
    private static let uriType = [UInt8(ascii: "U")]
    private static let textType = [UInt8(ascii: "T")]

    /// The URI prefixes as bytes, indexed by code.
    private static let prefixes: [[UInt8]] = URIPrefix.all.map { Array($0.utf8) }
    /// For each first byte, the codes of the prefixes starting with it, in code order.
    private static let codesByFirstByte: [[Int]] = (0..<256).map { byte in
        prefixes.indices.filter { prefixes[$0].first == UInt8(byte) }
    }
    /// Bytes that decide the prefix: the longest prefix and the character after it.
    private static let decidingBytes = (prefixes.map(\.count).max() ?? 0) + 2

    /// The URI payload (`URIPrefix.payload(for:)`) for URI bytes; `nil` when the URI has a control
    /// character (the codec rejects it) or a non-ASCII byte where `String.hasPrefix`, which compares
    /// characters, could decide otherwise than a byte comparison.
    static func uriPayload(_ uri: [UInt8]) -> [UInt8]? {
        let declined = uri.withUnsafeBufferPointer { bytes in
            for (offset, byte) in bytes.enumerated()
            where byte < 0x20 || byte == 0x7F || (byte >= 0x80 && offset < decidingBytes) {
                return true
            }
            return false
        }
        guard !declined else { return nil }
        var best = 0
        var bestLength = 0
        for code in uri.first.map({ codesByFirstByte[Int($0)] }) ?? [] {
            let prefix = prefixes[code]
            if prefix.count > bestLength && uri.starts(with: prefix) {
                best = code
                bestLength = prefix.count
            }
        }
        var payload: [UInt8] = []
        payload.reserveCapacity(1 + uri.count - bestLength)
        payload.append(UInt8(best))
        payload += uri[bestLength...]
        return payload
    }
}

extension Template {
    /// Renders a template string's UTF-8 bytes into `out` (replacing its contents); false on a render
    /// error, which the record JSON path then reports.
    func renderBytes(_ text: TemplateText, row: JobRow, late: LateBound?, into out: inout [UInt8]) -> Bool {
        out.removeAll(keepingCapacity: true)
        for segment in text.segments {
            switch segment {
            case .literal(let literal):
                out += literal.utf8
            case .placeholder(let placeholder):
                guard let value = try? value(of: placeholder, row: row, late: late) else { return false }
                out += value.utf8
            }
        }
        return true
    }
}
