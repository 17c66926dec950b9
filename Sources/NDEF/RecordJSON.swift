import Foundation
import JSONReader

/// The record JSON format: one description of an NDEF message shared by the CLI, templates and reports.
///
/// A document is `{"records": [ … ]}` or, on input only, a bare array. Each record is an object:
///
/// ```
/// {"type": "uri", "uri": "https://…"}
/// {"type": "text", "text": "…", "lang": "en", "encoding": "utf8" | "utf16"}   lang "en", encoding "utf8" by default
///  utf16 may add "byteOrder": "be-bom" (default) | "le-bom" | "be"            BOM FE FF, BOM FF FE, no BOM
/// {"type": "smartposter", "uri": "…", "titles": [{"text": "…", "lang": "en"}],
///  "action": "exec" | "save" | "edit", "size": N, "mediaType": "…"}           all but uri optional
/// {"type": "mime", "mediaType": "application/json", "text" | "hex" | "base64": "…"}
/// {"type": "absoluteURI", "uri": "…"}                                         optional "hex" | "text" payload
/// {"type": "external", "name": "example.com:auth", "hex" | "text": "…"}
/// {"type": "wellknown", "name": "Hc", "hex": "…"}
/// {"type": "unknown", "hex": "…"}
/// {"type": "empty"}
/// ```
///
/// Any record but `empty` may carry `"id": "…"` (UTF-8 text) or `"idHex": "…"`. Unknown keys are
/// errors, so a typo never passes silently. Error paths always start at `records[i]`, also for a
/// bare array.
///
/// Output (`encode`) is stable: two-space indentation, sorted keys, one trailing newline. Binary
/// payloads of mime, external, unknown and wellknown records are always `hex`, UTF-16 text (and titles)
/// always name their `byteOrder`, and a record whose typed form would not re-encode to the same bytes
/// (a URI written without its best prefix code, a Smart Poster in another record order) is written in
/// its raw form (`wellknown` with `hex`), so `decode(encode(message)) == message` for every valid message.
public enum RecordJSON {
    /// Parses record JSON into a message.
    ///
    /// - Throws: `RecordJSONError` naming the JSON path and the reason.
    public static func decode(_ data: Data) throws(RecordJSONError) -> NDEFMessage {
        let root = try parseDocument(data)
        let items: [JSONValue]
        switch root {
        case .array(let array):
            items = array
        case .object:
            var fields = try Fields(root, path: "")
            guard let array = try fields.array("records") else {
                throw RecordJSONError(path: "records", reason: "missing")
            }
            if let key = fields.members.keys.sorted().first(where: { $0 != "records" }) {
                throw RecordJSONError(path: key, reason: "unknown key")
            }
            items = array
        default:
            throw RecordJSONError(path: "", reason: "expected {\"records\": [...]} or an array, got \(root.kind)")
        }
        guard !items.isEmpty else {
            throw RecordJSONError(path: "records", reason: "a message needs at least one record")
        }
        var records: [NDEFPayload] = []
        for (index, item) in items.enumerated() {
            records.append(try record(from: item, path: "records[\(index)]"))
        }
        return NDEFMessage(records: records)
    }

    /// The JSON value of a whole document; a syntax error names its line and column.
    static func parseDocument(_ data: Data) throws(RecordJSONError) -> JSONValue {
        do throws(JSONScanner.SyntaxError) {
            return try JSONValue.parse(Array(data))
        } catch {
            let place = "line \(error.position.line), column \(error.position.column)"
            throw RecordJSONError(path: "", reason: "not valid JSON at \(place): \(error.message)")
        }
    }

    /// Builds one record from its JSON object and checks it as strictly as the binary decoder would.
    static func record(from value: JSONValue, path: String) throws(RecordJSONError) -> NDEFPayload {
        var fields = try Fields(value, path: path)
        let kind = try fields.requiredString("type")
        if kind == "empty" {
            try fields.rejectUnknownKeys()
            return .empty
        }
        let id = try fields.identifier()
        let record: NDEFPayload
        let mainField: String
        switch kind {
        case "uri":
            mainField = "uri"
            record = .uri(try fields.requiredString("uri"), identifier: id)
        case "text":
            mainField = "lang"
            let text = try fields.requiredString("text")
            let lang = try fields.string("lang") ?? "en"
            let (encoding, byteOrder) = try textEncoding(&fields)
            record = try checked(textErrorPath(fields)) { () throws(NDEFError) in
                try .text(text, languageCode: lang, encoding: encoding, byteOrder: byteOrder, identifier: id)
            }
        case "smartposter":
            mainField = "uri"
            let poster = try smartPoster(&fields)
            record = try checked(fields.at("uri")) { () throws(NDEFError) in try .smartPoster(poster, identifier: id) }
        case "mime":
            mainField = "hex"
            let type = try fields.requiredString("mediaType")
            let payload = try fields.data(from: ["hex", "text", "base64"], required: true) ?? []
            record = try checked(fields.at("mediaType")) { () throws(NDEFError) in
                try .mime(type, payload: payload, identifier: id)
            }
        case "absoluteURI":
            mainField = "uri"
            let uri = try fields.requiredString("uri")
            let payload = try fields.data(from: ["hex", "text"], required: false) ?? []
            record = try checked(fields.at("uri")) { () throws(NDEFError) in
                try .absoluteURI(uri, payload: payload, identifier: id)
            }
        case "external":
            mainField = "hex"
            let name = try fields.requiredString("name")
            let payload = try fields.data(from: ["hex", "text"], required: true) ?? []
            record = try checked(fields.at("name")) { () throws(NDEFError) in
                try .external(name, payload: payload, identifier: id)
            }
        case "wellknown":
            mainField = "hex"
            let name = try fields.requiredString("name")
            let payload = try fields.data(from: ["hex"], required: true) ?? []
            record = try checked(fields.at("name")) { () throws(NDEFError) in
                try .wellKnown(name, payload: payload, identifier: id)
            }
        case "unknown":
            mainField = "hex"
            record = .unknown(payload: try fields.data(from: ["hex"], required: true) ?? [], identifier: id)
        default:
            throw RecordJSONError(
                path: fields.at("type"),
                reason: "unknown record type '\(kind)' (uri, text, smartposter, mime, absoluteURI, external, "
                    + "wellknown, unknown, empty)")
        }
        try fields.rejectUnknownKeys()
        _ = try checked(fields.at(mainField)) { () throws(NDEFError) in try record.content() }
        return record
    }

    /// Runs an NDEF step, turning its error into a record JSON error at `path`.
    private static func checked<T>(_ path: String, _ body: () throws(NDEFError) -> T) throws(RecordJSONError) -> T {
        try checked({ _ in path }, body)
    }

    /// Runs an NDEF step, turning its error into a record JSON error at the path `path` picks for it.
    private static func checked<T>(
        _ path: (NDEFError) -> String, _ body: () throws(NDEFError) -> T
    ) throws(RecordJSONError) -> T {
        do {
            return try body()
        } catch {
            throw RecordJSONError(path: path(error), reason: "\(error.message) (\(error.code))")
        }
    }

    /// Where a Text value's error belongs: `text` for the text itself, else `lang`.
    private static func textErrorPath(_ fields: Fields) -> (NDEFError) -> String {
        { error in error.code == .invalidText ? fields.at("text") : fields.at("lang") }
    }

    /// `encoding` (default `utf8`) and, for `utf16` only, `byteOrder` (default `be-bom`).
    private static func textEncoding(
        _ fields: inout Fields
    ) throws(RecordJSONError) -> (NDEFText.Encoding, NDEFText.ByteOrder) {
        var encoding = NDEFText.Encoding.utf8
        if let name = try fields.string("encoding") {
            guard let named = NDEFText.Encoding(rawValue: name) else {
                throw RecordJSONError(path: fields.at("encoding"), reason: "expected utf8 or utf16, got '\(name)'")
            }
            encoding = named
        }
        guard let name = try fields.string("byteOrder") else { return (encoding, .bigEndianWithMark) }
        guard encoding == .utf16 else {
            throw RecordJSONError(path: fields.at("byteOrder"), reason: "only UTF-16 text has a byte order")
        }
        guard let byteOrder = NDEFText.ByteOrder(rawValue: name) else {
            throw RecordJSONError(
                path: fields.at("byteOrder"), reason: "expected be-bom, le-bom or be, got '\(name)'")
        }
        return (encoding, byteOrder)
    }

    private static func smartPoster(_ fields: inout Fields) throws(RecordJSONError) -> NDEFSmartPoster {
        var poster = NDEFSmartPoster(uri: try fields.requiredString("uri"))
        for (index, item) in (try fields.array("titles") ?? []).enumerated() {
            var title = try Fields(item, path: fields.at("titles[\(index)]"))
            let text = try title.requiredString("text")
            let lang = try title.string("lang") ?? "en"
            let (encoding, byteOrder) = try textEncoding(&title)
            try title.rejectUnknownKeys()
            let value = NDEFText(text, languageCode: lang, encoding: encoding, byteOrder: byteOrder)
            _ = try checked(textErrorPath(title)) { () throws(NDEFError) in try value.payload() }
            poster.titles.append(value)
        }
        if let name = try fields.string("action") {
            guard let action = NDEFSmartPoster.Action.allCases.first(where: { $0.name == name }) else {
                throw RecordJSONError(path: fields.at("action"), reason: "expected exec, save or edit, got '\(name)'")
            }
            poster.action = action
        }
        if let size = try fields.integer("size", in: 0...Int64(UInt32.max)) {
            poster.size = UInt32(size)
        }
        if let mediaType = try fields.string("mediaType") {
            try checked(fields.at("mediaType")) { () throws(NDEFError) in
                try NDEFTypeSyntax.checkMediaType(Array(mediaType.utf8))
            }
            poster.mediaType = mediaType
        }
        return poster
    }
}
