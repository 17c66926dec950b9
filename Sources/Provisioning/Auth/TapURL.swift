import Foundation
import NFCTags

/// A tap URL taken apart along the template string it was rendered from (for `provision verify-url`).
///
/// Literal text must match exactly; a placeholder of fixed length (`uid` 14, `timestamp` 20, a
/// `mac` its rendered length) takes exactly that many characters, any other takes the shortest run
/// that lets the rest match (`TapURLMatcher`, linear in the URL's length).
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

extension TapURL {
    /// The longest URL verify-url takes apart (bytes of UTF-8); longer input is refused unread.
    public static let maximumLength = 2048

    /// Whether `shown` is exactly what an NTAG21x mirrors into a `kind` window (`docs/reference/type2.md` §6):
    /// 14 upper-case hex UID digits, `x`, 6 upper-case hex counter digits, or one of the two parts.
    static func isChipForm(_ shown: String, _ kind: MirrorKind) -> Bool {
        let characters = Array(shown)
        guard characters.count == kind.length else { return false }
        func hex(_ range: Range<Int>) -> Bool {
            characters[range].allSatisfy { ("0"..."9").contains($0) || ("A"..."F").contains($0) }
        }
        switch kind {
        case .uid, .counter: return hex(0..<kind.length)
        case .uidAndCounter: return hex(0..<14) && characters[14] == "x" && hex(15..<21)
        }
    }
}

extension TapURL {
    /// Whether the presented MAC is the one of `inputs` (the tag's values, in the MAC's input order) under `key`.
    /// For a UID outside the job (`inputs` is `nil`) the same HMAC runs over a stand-in of as many inputs and the
    /// answer is `false`: the answer takes the same work either way, so its time does not tell which UIDs a job
    /// holds.
    ///
    /// - Throws: when the key's token cannot compute the MAC.
    public func macMatches(key: SecretKey, job: String, inputs: [String]?) throws -> Bool {
        let standIn = self.inputs.map { $0 == "uid" ? uid ?? "" : "" }
        let matches = try setting.matches(mac, key: key, job: job, fields: inputs ?? standIn)
        return inputs != nil && matches
    }
}

extension Template {
    /// Takes `url` apart along the first template string holding a `{{mac:…}}` that it matches.
    public func matchTapURL(_ url: String) -> TapURL? { matchTapURLCounting(url).tap }

    /// `matchTapURL` with the matcher's steps (instruction visits, linear in the URL's length).
    ///
    /// A URL over `TapURL.maximumLength` bytes is not matched (`nil`, 0 steps). A mirror window must
    /// hold exactly the chip's form (`TapURL.isChipForm`), else the URL does not match: a counter
    /// window that parses to nothing must never skip the replay check.
    public func matchTapURLCounting(_ url: String) -> (tap: TapURL?, steps: Int) {
        guard url.utf8.count <= TapURL.maximumLength else { return (nil, 0) }
        let characters = Array(url)
        var steps = 0
        for text in texts(root) where text.segments.contains(where: Self.isMAC) {
            let matched = TapURLMatcher(text.segments[...], fixedLength: Self.fixedLength).match(characters)
            steps += matched.steps
            guard let values = matched.values else { continue }
            return (Self.tap(values), steps)
        }
        return (nil, steps)
    }

    private static func tap(_ values: [(Placeholder, String)]) -> TapURL? {
        var found: TapURL?
        for (placeholder, value) in values {
            if case .mac(let key, let inputs, let setting) = placeholder.source {
                found = TapURL(uid: nil, mac: value, keyID: key, inputs: inputs, setting: setting)
            }
        }
        guard var tap = found else { return nil }
        tap.uid = values.first { $0.0.source == .uid }?.1
        for (placeholder, value) in values {
            switch placeholder.source {
            case .mac: continue
            case .mirror(let kind):
                guard TapURL.isChipForm(value, kind) else { return nil }
                if kind != .counter { tap.uid = String(value.prefix(14)) }
                if kind != .uid { tap.counter = Int(value.suffix(6), radix: 16) }
            default: tap.others[placeholder] = value
            }
        }
        return tap
    }

    private static func isMAC(_ segment: TemplateText.Segment) -> Bool {
        if case .placeholder(let placeholder) = segment, case .mac = placeholder.source { return true }
        return false
    }

    /// Every template string under `node`, in file order.
    func texts(_ node: Node) -> [TemplateText] {
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
}
