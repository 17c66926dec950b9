import Foundation

/// A tap URL taken apart along the template string it was rendered from (for `provision verify-url`).
///
/// Literal text must match exactly; a placeholder of fixed length (`uid` 14, `timestamp` 20, a
/// `mac` its rendered length) takes exactly that many characters, any other takes the shortest run
/// that lets the rest match.
public struct TapURL: Sendable, Hashable {
    /// The UID the URL names (from `{{uid}}`), 14 upper-case hex digits.
    public var uid: String?
    /// The NFC counter the chip mirrored into the URL, if the template mirrors it.
    public var counter: Int?
    /// The MAC as presented, and its placeholder's key, inputs and setting.
    public var mac: String
    /// The key id of the MAC.
    public var keyID: String
    /// The names the MAC covers.
    public var inputs: [String]
    /// The MAC's size and rendering.
    public var setting: URLMAC
    /// The value found for every other placeholder of the string (to check against the row).
    public var others: [Placeholder: String] = [:]
}

extension Template {
    /// Takes `url` apart along the first template string holding a `{{mac:…}}` that it matches.
    public func matchTapURL(_ url: String) -> TapURL? {
        for text in texts(root) where text.segments.contains(where: Self.isMAC) {
            guard let values = Self.match(Array(url), text.segments[...]) else { continue }
            var found: TapURL?
            for (placeholder, value) in values {
                if case .mac(let key, let inputs, let setting) = placeholder.source {
                    found = TapURL(uid: nil, mac: value, keyID: key, inputs: inputs, setting: setting)
                }
            }
            guard var tap = found else { continue }
            tap.uid = values.first { $0.0.source == .uid }?.1
            tap.counter = nil
            for (placeholder, value) in values {
                switch placeholder.source {
                case .mac: continue
                case .mirror(let kind):
                    if kind != .counter { tap.uid = String(value.prefix(14)) }
                    if kind != .uid { tap.counter = Int(value.suffix(6), radix: 16) }
                    if kind == .uidAndCounter, Array(value)[14] != "x" { return nil }
                default: tap.others[placeholder] = value
                }
            }
            return tap
        }
        return nil
    }

    private static func isMAC(_ segment: TemplateText.Segment) -> Bool {
        if case .placeholder(let placeholder) = segment, case .mac = placeholder.source { return true }
        return false
    }

    private func texts(_ node: Node) -> [TemplateText] {
        switch node {
        case .raw: []
        case .text(let text): [text]
        case .array(let nodes): nodes.flatMap(texts)
        case .object(let pairs): pairs.flatMap { texts($0.value) }
        }
    }

    private static func fixedLength(_ placeholder: Placeholder) -> Int? {
        guard placeholder.filters.isEmpty else { return nil }
        switch placeholder.source {
        case .uid: return 14
        case .timestamp: return 20
        case .mac(_, _, let setting): return setting.renderedLength
        case .mirror(let kind): return kind.length
        default: return nil
        }
    }

    /// Backtracking match of `url` against `segments`; the captured value of every placeholder.
    private static func match(
        _ url: [Character], _ segments: ArraySlice<TemplateText.Segment>
    ) -> [(Placeholder, String)]? {
        guard let first = segments.first else { return url.isEmpty ? [] : nil }
        let rest = segments.dropFirst()
        switch first {
        case .literal(let literal):
            let chars = Array(literal)
            guard url.count >= chars.count, Array(url[..<chars.count]) == chars else { return nil }
            return match(Array(url[chars.count...]), rest)
        case .placeholder(let placeholder):
            let lengths: [Int] =
                if let fixed = fixedLength(placeholder) { fixed <= url.count ? [fixed] : [] } else { Array(0...url.count) }
            for length in lengths {
                if let tail = match(Array(url[length...]), rest) {
                    return [(placeholder, String(url[..<length]))] + tail
                }
            }
            return nil
        }
    }
}
