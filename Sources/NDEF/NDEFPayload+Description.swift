/// A one-line, human-readable account of a record, shared by `provision ndef decode`, `write`, `inspect`
/// and the audit reports, so every place shows a record the same way.
extension NDEFPayload {
    /// The record as one line with its position: `record 0: ` then `summaryLine`.
    public func summaryLine(index: Int) -> String {
        "record \(index): \(summaryLine)"
    }

    /// The record as one line: TNF, type, ID, payload summary, payload size.
    ///
    /// URIs are shown whole, so a tap URL can be copied from the line; long text and data are shortened.
    public var summaryLine: String {
        let tnf = "\(typeNameFormat) (\(typeNameFormat.rawValue))"
        let type = self.type.isEmpty ? "no type" : "type \(Self.field(self.type))"
        let id = identifier.isEmpty ? "no id" : "id \(Self.field(identifier))"
        let size = "\(payload.count)-byte payload"
        return "\(tnf), \(type), \(id), \(contentSummary), \(size)"
    }

    /// What the payload says: the URI, text or smart poster decoded, else a text or hex preview.
    private var contentSummary: String {
        guard let content = try? content() else { return "data \(Self.preview(payload))" }
        switch content {
        case .empty: return "empty"
        case .uri(let uri): return "URI \(Self.quoted(uri, whole: true))"
        case .text(let text):
            let form = text.encoding == .utf16 ? "utf16 \(text.byteOrder.rawValue)" : text.encoding.rawValue
            return "text \(Self.quoted(text.text)) (\(text.languageCode), \(form))"
        case .smartPoster(let poster):
            var parts = ["smart poster \(Self.quoted(poster.uri, whole: true))"]
            parts += poster.titles.map { "title \(Self.quoted($0.text)) (\($0.languageCode))" }
            if let action = poster.action { parts.append("action \(action.name)") }
            if let size = poster.size { parts.append("size \(size)") }
            if let mediaType = poster.mediaType { parts.append("type \(mediaType)") }
            if !poster.otherRecords.isEmpty { parts.append("\(poster.otherRecords.count) other records") }
            return parts.joined(separator: ", ")
        case .absoluteURI(let uri, let payload):
            return "absolute URI \(Self.quoted(uri, whole: true))"
                + (payload.isEmpty ? "" : ", data \(Self.preview(payload))")
        case .wellKnown(_, let payload), .mime(_, let payload), .external(_, let payload), .unknown(let payload):
            if let text = String(validating: payload, as: UTF8.self), !payload.isEmpty,
                !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
            {
                return "text \(Self.quoted(text))"
            }
            return "data \(Self.preview(payload))"
        }
    }

    /// A TYPE or ID: quoted when printable ASCII, else hex.
    private static func field(_ bytes: [UInt8]) -> String {
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return quoted(String(decoding: bytes, as: UTF8.self)) }
        return Hex.compact(bytes)
    }

    /// `text` in quotes with control characters escaped; cut at 60 characters unless `whole`.
    private static func quoted(_ text: String, whole: Bool = false) -> String {
        let short = !whole && text.count > 60 ? String(text.prefix(60)) + "…" : text
        return "\"" + short.unicodeScalars.map { $0.escaped(asASCII: false) }.joined() + "\""
    }

    private static func preview(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "none" }
        return Hex.string(bytes.prefix(16)) + (bytes.count > 16 ? " …" : "")
    }
}
