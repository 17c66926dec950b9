extension SUNScheme {
    /// The URL layout of a job's template: the query parameters `{{sun.picc}}` and `{{sun.mac}}` are the values
    /// of (`…?NAME={{sun.picc}}`, `…&NAME={{sun.mac}}`, in one string), and what the job's MAC covers.
    ///
    /// - Throws: a problem at the token when the template has no `{{sun.picc}}` with `{{sun.mac}}` (plain mirrors
    ///   carry no PICC data to decrypt), or a token is not a query parameter's value.
    public func tapLayout(strings: [[DynamicTemplatePart]], options: DynamicMessageOptions)
        throws(DynamicMessageProblem) -> any TapLayout
    {
        var tokens: [(index: Int, token: SUNToken)] = []
        for case .token(let token, let index) in strings.joined() {
            if let sun = SUNToken(token) { tokens.append((index, sun)) }
        }
        guard tokens.contains(where: { $0.token == .picc }), tokens.contains(where: { $0.token == .mac }) else {
            throw DynamicMessageProblem(
                token: tokens.first?.index,
                "verify-url checks a SUN of \(SUNToken.picc.written) and \(SUNToken.mac.written); this template has "
                    + (tokens.isEmpty ? "no SUN token" : tokens.map(\.token.written).joined(separator: ", ")))
        }
        for parts in strings {
            var names: [SUNToken: String] = [:]
            var previous: DynamicTemplatePart?
            for part in parts {
                defer { previous = part }
                guard case .token(let found, let index) = part, let token = SUNToken(found),
                    token == .picc || token == .mac
                else { continue }
                guard case .literal(let before) = previous, let name = Self.parameterName(endingWith: before) else {
                    throw DynamicMessageProblem(
                        token: index,
                        "\(token.written) must be the value of a query parameter (…?NAME=\(token.written) or "
                            + "…&NAME=\(token.written)) for verify-url to find it in a tap URL")
                }
                names[token] = name
            }
            guard let picc = names[.picc] else { continue }
            guard let mac = names[.mac], mac != picc else {
                throw DynamicMessageProblem(
                    token: tokens.first { $0.token == .mac }?.index,
                    "\(SUNToken.mac.written) must be another query parameter of the URL that holds "
                        + SUNToken.picc.written)
            }
            return SUNURLLayout(picc: picc, mac: mac, macInput: options.macCoversMessage ? .picc : .empty)
        }
        throw DynamicMessageProblem("no template string holds \(SUNToken.picc.written)")
    }

    /// `NAME` when `literal` ends with `?NAME=` or `&NAME=`.
    static func parameterName(endingWith literal: String) -> String? {
        guard literal.hasSuffix("="), let start = literal.dropLast().lastIndex(where: { $0 == "?" || $0 == "&" })
        else { return nil }
        let name = literal[literal.index(after: start)..<literal.index(before: literal.endIndex)]
        guard !name.isEmpty, !name.contains("=") else { return nil }
        return String(name)
    }
}
