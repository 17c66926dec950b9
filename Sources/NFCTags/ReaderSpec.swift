/// A parsed reader spec string: `scheme[:target][?key=value&key=value]`.
///
/// Examples: `sim:ntag215?count=50&timing=datasheet`, `nfc:pn532_uart:/dev/pts/3`, `pcsc:#1`,
/// `pcsc:ACS ACR122U 00 00?style=acr122u`. The target is everything between the first `:` and the
/// first `?`; options are `&`-separated `key=value` pairs (a bare `key` means `key=true`).
public struct ReaderSpec: Sendable, Hashable, CustomStringConvertible {
    /// The backend (`sim`, `nfc`, `pcsc`).
    public var scheme: String
    /// The backend-specific target (chip for `sim`, connstring for `nfc`, reader name for `pcsc`).
    public var target: String
    /// Options in the order written.
    public var options: [(key: String, value: String)]

    /// The text as written.
    public let text: String

    /// Parses a spec; throws a usage message naming what is wrong.
    public init(_ text: String) throws(ReaderSpecError) {
        self.text = text
        let (head, query) = Self.split(text, at: "?")
        let (scheme, target) = Self.split(head, at: ":")
        guard !scheme.isEmpty else { throw ReaderSpecError(spec: text, reason: "missing backend name before ':'") }
        self.scheme = scheme
        self.target = target ?? ""
        var options: [(key: String, value: String)] = []
        if let query, !query.isEmpty {
            for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
                let (key, value) = Self.split(String(pair), at: "=")
                guard !key.isEmpty else { throw ReaderSpecError(spec: text, reason: "empty option name in '\(pair)'") }
                if options.contains(where: { $0.key == key }) {
                    throw ReaderSpecError(spec: text, reason: "option '\(key)' given twice")
                }
                options.append((key, value ?? "true"))
            }
        }
        self.options = options
    }

    /// The value of option `key`, if given.
    public func option(_ key: String) -> String? { options.first { $0.key == key }?.value }

    public var description: String { text }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    private static func split(_ text: String, at separator: Character) -> (String, String?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (String(text[..<index]), String(text[text.index(after: index)...]))
    }
}

/// A reader spec that cannot be used; the CLI reports it with exit 64.
public struct ReaderSpecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The spec as written.
    public var spec: String
    /// What is wrong, in words an operator can act on.
    public var reason: String

    /// Creates an error for `spec`.
    public init(spec: String, reason: String) {
        self.spec = spec
        self.reason = reason
    }

    public var description: String { "reader '\(spec)': \(reason)" }
}
