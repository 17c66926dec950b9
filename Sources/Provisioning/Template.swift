import Foundation
import JSONReader
import NDEF
import NFCTags

/// A message template: the record JSON of `provision ndef encode` with `{{…}}` placeholders in string values.
///
/// Placeholders name a row field (CSV header or JSON key) or a built-in — `serial`, `row`, `job`,
/// and the late-bound `uid` and `timestamp` — followed by filters (`upper`, `lower`, `urlencode`,
/// `pad:N`, `hex`, `default:TEXT`). Built-ins take precedence over JSON record keys of the same name;
/// a CSV column named like a built-in the template uses is an error. Names containing `:` are
/// function calls: `mac:KEYID` or `mac:KEYID:name,name` (see `Placeholder.Source.mac`).
public struct Template: Sendable {
    /// The template file as shown in messages.
    public let file: String
    /// The job name `{{job}}` renders.
    public let job: String
    /// The serial settings `{{serial}}` renders.
    public let serial: SerialNumbering
    /// Every placeholder, in file order.
    public let placeholders: [Placeholder]
    /// Keys `{{mac:KEYID}}` renders with, set once the job's keys are loaded (empty: MACs are sized only).
    public var keys: [String: SecretKey] = [:]
    /// What `{{uid}}` renders as when sizing (no tag yet): as many hex digits as the job's tags' UIDs have
    /// (`TagTarget.uidHexDigits`: 16 for a FeliCa IDm), the 7-byte stand-in by default.
    public var sizingUIDText = LateBound.sizingUIDText

    let root: Node
    let tree: JSONNode
    /// The compiled form rows render through when the template has a common shape (`TemplatePlan`).
    let plan: TemplatePlan?

    /// A template tree: JSON with string values split into literals and placeholders.
    indirect enum Node: Sendable {
        case raw(String)
        case text(TemplateText)
        case array([Node])
        case object([(key: String, value: Node)])
    }

    /// Built-in names known before writing.
    public static let builtinNames = ["serial", "row", "job"]
    /// Built-in names known only when the tag is in the field.
    public static let lateBoundNames = ["uid", "timestamp"]

    /// Loads the template a manifest names.
    public static func load(for manifest: Manifest) throws(JobInputError) -> Template {
        let file = manifest.displayPath(manifest.templateURL)
        let data: Data
        do {
            data = try Data(contentsOf: manifest.templateURL)
        } catch {
            throw JobInputError.missing(file: file, url: manifest.templateURL)
        }
        var template = try Template(parsing: Array(data), file: file, job: manifest.job, serial: manifest.serial)
        template.sizingUIDText = String(repeating: "F", count: manifest.tag.uidHexDigits)
        let mirrors = template.mirrorTokens.map(\.placeholder)
        if mirrors.count > 1 {
            throw JobInputError(
                .templateInvalid, file: file, position: mirrors[1].position,
                "a tag has one mirror; use {{uidCounterMirror}} for both UID and counter")
        }
        if let mirror = mirrors.first, !mirror.filters.isEmpty {
            throw JobInputError(
                .templateInvalid, file: file, position: mirror.position,
                "'\(mirror.name)' takes no filters: the chip writes its ASCII as is")
        }
        try template.checkDynamicMessage(for: manifest)
        if let mirror = mirrors.first, !manifest.tag.mayMirror {
            throw JobInputError(
                .templateInvalid, file: file, position: mirror.position,
                "'\(mirror.name)' needs a " + TagTarget.list("job") { $0.mayMirror }
                    + "; tag \(manifest.tag.rawValue) has no mirror")
        }
        for placeholder in template.placeholders {
            guard case .mac(_, let inputs, _) = placeholder.source else { continue }
            for input in inputs where !Self.recomputable(input) {
                throw JobInputError(
                    .templateInvalid, file: file, position: placeholder.position,
                    "the mac input '\(input)' cannot be recomputed by verify-url (it is not kept after writing), "
                        + "so no tap could ever verify; use uid, serial, row, job or row fields")
            }
        }
        for placeholder in template.placeholders {
            guard case .mac(let key, _, _) = placeholder.source, manifest.security.keys[key] == nil else { continue }
            let known = manifest.security.keys.keys.sorted().joined(separator: ", ")
            throw JobInputError(
                .templateInvalid, file: file, position: placeholder.position,
                "key '\(key)' is not in the manifest's keys (known: \(known.isEmpty ? "none" : known))")
        }
        return template
    }

    /// Whether verify-url can recompute MAC input `name` from the URL and the ledger's row: the UID, the
    /// row's fields and the values derived from the row (serial, row, job); never `timestamp`.
    static func recomputable(_ name: String) -> Bool {
        switch Placeholder.source(for: name) {
        case .uid, .serial, .row, .job, .field: true
        case .timestamp, .mac, .mirror, .dynamic, nil: false
        }
    }

    /// Parses a template from its bytes.
    public init(parsing bytes: [UInt8], file: String, job: String, serial: SerialNumbering) throws(JobInputError) {
        do {
            tree = try JSONScanner.parse(bytes)
        } catch {
            throw JobInputError(.jsonSyntax, file: file, position: error.position, error.message)
        }
        self.file = file
        self.job = job
        self.serial = serial
        var found: [Placeholder] = []
        root = try Self.build(tree, file: file, placeholders: &found)
        placeholders = found
        plan = TemplatePlan(root)
    }

    private static func build(_ node: JSONNode, file: String, placeholders: inout [Placeholder]) throws(JobInputError)
        -> Node
    {
        switch node.kind {
        case .null: return .raw("null")
        case .bool(let flag): return .raw(flag ? "true" : "false")
        case .number(let text): return .raw(text)
        case .string(let text, let columns):
            let parsed = try TemplateText.parse(text, columns: columns, line: node.position.line, file: file)
            for case .placeholder(let placeholder) in parsed.segments { placeholders.append(placeholder) }
            return .text(parsed)
        case .array(let elements):
            var nodes: [Node] = []
            for element in elements { nodes.append(try build(element, file: file, placeholders: &placeholders)) }
            return .array(nodes)
        case .object(let members):
            var pairs: [(key: String, value: Node)] = []
            for member in members {
                if member.key.contains("{{") {
                    throw JobInputError(
                        .templateInvalid, file: file, position: member.keyPosition,
                        "placeholders are allowed only in string values, not in keys")
                }
                pairs.append((member.key, try build(member.value, file: file, placeholders: &placeholders)))
            }
            return .object(pairs)
        }
    }

    /// Checks field names against a CSV header: unknown names and columns that shadow a used built-in.
    ///
    /// - Parameters:
    ///   - columns: the header names.
    ///   - dataFile: the CSV file, for messages.
    /// - Throws: `JobInputError` (`templateInvalid`) at the placeholder's position.
    public func check(columns: [String], dataFile: String) throws(JobInputError) {
        let known = Set(columns)
        for placeholder in placeholders {
            switch placeholder.source {
            case .field(let name) where !known.contains(name):
                throw JobInputError(
                    .templateInvalid, file: file, position: placeholder.position,
                    "unknown name '\(name)' (columns of \(dataFile): \(columns.joined(separator: ", ")); built-ins: "
                        + (Self.builtinNames + Self.lateBoundNames).joined(separator: ", ") + ")")
            case .field: continue
            case .mac(_, let inputs, _):
                for name in inputs where !known.contains(name) && Placeholder.source(for: name) == .field(name) {
                    throw JobInputError(
                        .templateInvalid, file: file, position: placeholder.position,
                        "unknown name '\(name)' in the mac inputs "
                            + "(columns of \(dataFile): \(columns.joined(separator: ", ")))"
                    )
                }
            default:
                if known.contains(placeholder.name) {
                    throw JobInputError(
                        .templateInvalid, file: file, position: placeholder.position,
                        "'\(placeholder.name)' is both a built-in and a column of \(dataFile); rename the column")
                }
            }
        }
    }

    /// Whether rows render straight into records (`TemplatePlan`) rather than through record JSON text.
    public var rendersDirectly: Bool { plan != nil }

    /// Whether any placeholder is late-bound (`uid`, `timestamp`).
    public var hasLateBoundValues: Bool { placeholders.contains { $0.isLateBound } }
}
