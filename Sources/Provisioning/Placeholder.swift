import Foundation
import JSONReader
import NDEF
import NFCTags

/// One `{{name | filter…}}` in a template string, with where it was written.
public struct Placeholder: Sendable, Hashable {
    /// What a placeholder's name refers to.
    public enum Source: Sendable, Hashable {
        /// A row field by header name or JSON key.
        case field(String)
        /// `serial` from the manifest's serial settings.
        case serial
        /// `row`, the 1-based data row.
        case row
        /// `job`, the job name.
        case job
        /// `uid`, the tag's UID as 14 upper-case hex digits (late-bound).
        case uid
        /// `timestamp`, the write time in ISO 8601 UTC (late-bound).
        case timestamp
        /// `mac:KEYID[:name,…]`: the URL MAC under a manifest key over the named values (default `uid`),
        /// sized and rendered by `bytes:N`, `hex` or `base64url` after `|`.
        case mac(key: String, inputs: [String], setting: URLMAC)
        /// `uidMirror`, `counterMirror`, `uidCounterMirror`: a window the chip fills with its UID and/or
        /// NFC counter in ASCII on every READ (`docs/reference/type2.md` §6).
        case mirror(MirrorKind)
        /// A token of a keyed chip's dynamic message (`DynamicMessageScheme.tokens`, such as `sun.mac`): a window
        /// the chip fills on every unauthenticated read.
        case dynamic(DynamicToken)
    }

    /// The name as written (trimmed).
    public var name: String
    /// What the name refers to.
    public var source: Source
    /// Filters in application order.
    public var filters: [TemplateFilter]
    /// Where the opening `{{` is in the template file.
    public var position: TextPosition

    /// Whether the value is known only at write time.
    public var isLateBound: Bool {
        switch source {
        case .uid, .timestamp: true
        case .mac(_, let inputs, _): inputs.contains { Template.lateBoundNames.contains($0) }
        default: false
        }
    }

    /// Whether a `default:` filter covers a missing field.
    var hasDefault: Bool {
        filters.contains { if case .defaultValue = $0 { true } else { false } }
    }

    /// Names reserved for later template tokens; using one is an error.
    static let reservedNames: Set<String> = []

    /// Parses `mac:KEYID` or `mac:KEYID:name,name`; `nil` when `name` is not a well-formed MAC call.
    static func macSource(for name: String) -> Source? {
        let parts = name.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.first == "mac", (2...3).contains(parts.count), !parts[1].isEmpty else { return nil }
        let inputs =
            parts.count == 3
            ? parts[2].split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            } : ["uid"]
        guard !inputs.isEmpty, !inputs.contains(where: \.isEmpty) else { return nil }
        return .mac(key: parts[1], inputs: inputs, setting: URLMAC())
    }

    /// Resolves a name to its source; `nil` when it is a function call (`mac:KEY`) or reserved.
    static func source(for name: String) -> Source? {
        switch name {
        case "serial": .serial
        case "row": .row
        case "job": .job
        case "uid": .uid
        case "timestamp": .timestamp
        case "uidMirror": .mirror(.uid)
        case "counterMirror": .mirror(.counter)
        case "uidCounterMirror": .mirror(.uidAndCounter)
        default:
            if DynamicMessages.scheme(owning: name) != nil {
                DynamicMessages.token(named: name).map { .dynamic($0) }
            } else {
                name.contains(":") || reservedNames.contains(name) ? nil : .field(name)
            }
        }
    }
}

/// A template string value split into literal text and placeholders.
struct TemplateText: Sendable {
    enum Segment: Sendable {
        case literal(String)
        case placeholder(Placeholder)
    }

    var segments: [Segment]

    /// Parses `{{…}}` placeholders in a decoded JSON string; `columns[i]` is the source column of scalar i.
    static func parse(_ text: String, columns: [Int], line: Int, file: String) throws(JobInputError) -> TemplateText {
        let scalars = Array(text.unicodeScalars)
        func at(_ index: Int) -> TextPosition {
            TextPosition(line: line, column: index < columns.count ? columns[index] : (columns.last ?? 0) + 1)
        }
        func fail(_ index: Int, _ message: String) -> JobInputError {
            JobInputError(.templateInvalid, file: file, position: at(index), message)
        }
        func opens(_ index: Int) -> Bool {
            index + 1 < scalars.count && scalars[index] == "{" && scalars[index + 1] == "{"
        }
        var segments: [Segment] = []
        var literal = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard opens(index) else {
                literal.append(scalars[index])
                index += 1
                continue
            }
            let open = index
            var close = index + 2
            while close + 1 < scalars.count, !(scalars[close] == "}" && scalars[close + 1] == "}") {
                if opens(close) {
                    throw fail(close, "'{{' inside a placeholder; close the one at column \(at(open).column) first")
                }
                close += 1
            }
            guard close + 1 < scalars.count else { throw fail(open, "unclosed '{{' (no matching '}}')") }
            if !literal.isEmpty {
                segments.append(.literal(String(literal)))
                literal = String.UnicodeScalarView()
            }
            segments.append(
                .placeholder(try parsePlaceholder(scalars, from: open + 2, to: close, open: open, at: at, fail: fail)))
            index = close + 2
        }
        if !literal.isEmpty { segments.append(.literal(String(literal))) }
        return TemplateText(segments: segments)
    }

    private static func parsePlaceholder(
        _ scalars: [Unicode.Scalar], from start: Int, to end: Int, open: Int, at: (Int) -> TextPosition,
        fail: (Int, String) -> JobInputError
    ) throws(JobInputError) -> Placeholder {
        // Split on '|' and trim each part, remembering where each part's first non-blank scalar is.
        var parts: [(text: String, index: Int)] = []
        var partStart = start
        for cursor in start...end where cursor == end || scalars[cursor] == "|" {
            var first = partStart
            while first < cursor, scalars[first] == " " { first += 1 }
            var last = cursor
            while last > first, scalars[last - 1] == " " { last -= 1 }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[first..<last])
            parts.append((String(view), first))
            partStart = cursor + 1
        }
        let name = parts[0].text
        guard !name.isEmpty else { throw fail(open, "empty placeholder '{{}}'") }
        if name.hasPrefix("mac:") {
            guard case .mac(let key, let inputs, var setting)? = Placeholder.macSource(for: name) else {
                throw fail(parts[0].index, "'{{\(name)}}' must be {{mac:KEYID}} or {{mac:KEYID:name,name…}}")
            }
            for part in parts.dropFirst() {
                if part.text == "hex" {
                    setting.rendering = .hex
                } else if part.text == "base64url" {
                    setting.rendering = .base64url
                } else if part.text.hasPrefix("bytes:"), let count = Int(part.text.dropFirst(6)),
                    (4...32).contains(count)
                {
                    setting.bytes = count
                } else {
                    throw fail(
                        part.index, "a mac takes only 'bytes:N' (N in 4…32), 'hex' or 'base64url', not '\(part.text)'")
                }
            }
            return Placeholder(
                name: name, source: .mac(key: key, inputs: inputs, setting: setting), filters: [], position: at(open))
        }
        guard let source = Placeholder.source(for: name) else {
            if Placeholder.reservedNames.contains(name) {
                throw fail(parts[0].index, "'\(name)' is not supported yet (it arrives with product authentication)")
            }
            if let scheme = DynamicMessages.scheme(owning: name)?.dynamicMessage {
                let known = scheme.tokens.map(\.written).joined(separator: ", ")
                throw fail(parts[0].index, "unknown \(scheme.name) token '{{\(name)}}' (known: \(known))")
            }
            let function = name.prefix { $0 != ":" }
            throw fail(parts[0].index, "unknown function '\(function)' in '{{\(name)}}'")
        }
        var filters: [TemplateFilter] = []
        for part in parts.dropFirst() {
            guard !part.text.isEmpty else { throw fail(part.index, "empty filter after '|'") }
            switch TemplateFilter.parse(part.text) {
            case .success(let filter): filters.append(filter)
            case .failure(let problem): throw fail(part.index, problem.message)
            }
        }
        return Placeholder(name: name, source: source, filters: filters, position: at(open))
    }
}
