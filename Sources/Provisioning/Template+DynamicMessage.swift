import NDEF
import NFCTags

extension Template {
    /// The template's dynamic-message tokens (`Placeholder.Source.dynamic`) with where each is written.
    var dynamicTokens: [(placeholder: Placeholder, token: DynamicToken)] {
        placeholders.compactMap { placeholder in
            if case .dynamic(let token) = placeholder.source { return (placeholder, token) }
            return nil
        }
    }

    /// Whether the template has a token of a keyed chip's dynamic message.
    public var hasDynamicMessage: Bool { !dynamicTokens.isEmpty }

    /// Refuses dynamic-message tokens a job cannot honour, naming the template line (issue 25's pre-flight rules):
    /// only on a keyed job of the scheme's chip with the scheme's section; each token once, without filters; then
    /// the scheme's own rules (`DynamicMessageScheme.problem`). NTAG21x mirror tokens on a job of a chip with a
    /// dynamic message point to its tokens.
    func checkDynamicMessage(for manifest: Manifest) throws(JobInputError) {
        func refuse(_ placeholder: Placeholder, _ message: String) -> JobInputError {
            JobInputError(.templateInvalid, file: file, position: placeholder.position, message)
        }
        let chipScheme = manifest.chipDynamicMessage
        if let chipScheme, let message = chipScheme.dynamicMessage, let mirror = mirrorTokens.first?.placeholder {
            throw refuse(
                mirror,
                "'\(mirror.name)' is an NTAG21x mirror; an \(Self.chipNames(chipScheme)) \(message.usage)")
        }
        let tokens = dynamicTokens
        guard let first = tokens.first else { return }
        guard let owner = DynamicMessages.scheme(owning: first.token.name), let scheme = owner.dynamicMessage,
            chipScheme?.section == owner.section, manifest.keyed?.scheme.section == owner.section
        else {
            let owner = DynamicMessages.scheme(owning: first.token.name)
            let chip = owner?.chips.sorted { $0.id < $1.id }.first
            throw refuse(
                first.placeholder,
                "'\(first.placeholder.name)' needs an \(owner.map(Self.chipNames) ?? "keyed") job (\"tag\": "
                    + "\"\(chip?.id ?? "?")\") with an \"\(owner?.section ?? "?")\" section naming its master key")
        }
        var seen: Set<DynamicToken> = []
        for (placeholder, token) in tokens {
            guard seen.insert(token).inserted else { throw refuse(placeholder, "\(token.written) appears twice") }
            guard placeholder.filters.isEmpty else {
                throw refuse(placeholder, "\(token.written) takes no filters: the chip writes its ASCII as is")
            }
        }
        if let problem = scheme.problem(with: tokens.map(\.token)) {
            throw refuse(tokens[problem.token ?? 0].placeholder, problem.description)
        }
    }

    /// The names of a keyed scheme's chips, for messages.
    static func chipNames(_ scheme: any KeyedScheme) -> String {
        scheme.chips.map(\.displayName).sorted().joined(separator: " or ")
    }

    /// Where this row's dynamic message lands, as `scheme` lays it out; `nil` when the template has no token.
    ///
    /// Renders the message once with `0`s and once per token with a marker, and takes the first differing byte.
    /// - Throws: `templateInvalid` when a token does not sit in plain characters of a URI or text.
    public func dynamicLayout(
        row: JobRow, late: LateBound?, scheme: any DynamicMessageScheme, options: DynamicMessageOptions
    ) throws(JobInputError) -> (any DynamicMessageLayout)? {
        let tokens = dynamicTokens
        guard !tokens.isEmpty else { return nil }
        let base = late ?? .sizing
        let plain = try render(row: row, late: base).bytes
        var offsets: [DynamicToken: Int] = [:]
        for (placeholder, token) in tokens {
            var marked = base
            marked.markedDynamic = token
            offsets[token] = try offset(of: placeholder, in: plain, markedBy: marked, row: row, what: token.written)
        }
        return scheme.layout(messageOffsets: offsets, options: options)
    }

    /// The layout of this row's dynamic message on a keyed job, or a `templateInvalid` problem naming the first
    /// token, row and the chip's rule when the chip would refuse it; `nil` for a job without one.
    public func dynamicLayout(row: JobRow, late: LateBound?, manifest: Manifest) throws(JobInputError)
        -> (any DynamicMessageLayout)?
    {
        guard let scheme = manifest.dynamicMessage, let options = manifest.dynamicMessageOptions,
            let layout = try dynamicLayout(row: row, late: late, scheme: scheme, options: options)
        else { return nil }
        if let reason = layout.refusal() {
            throw JobInputError(
                .templateInvalid, file: file, position: dynamicTokens[0].placeholder.position, row: row.row,
                "the \(manifest.tag.displayName) would refuse these \(scheme.name) offsets: \(reason)")
        }
        return layout
    }

    /// The template strings as a dynamic message's scheme sees them (`DynamicMessageScheme.tapLayout`), in file
    /// order; token indexes count the template's tokens.
    var dynamicTemplateStrings: [[DynamicTemplatePart]] {
        var index = 0
        return texts(root).map { text in
            text.segments.map { segment -> DynamicTemplatePart in
                switch segment {
                case .literal(let literal): return .literal(literal)
                case .placeholder(let placeholder):
                    guard case .dynamic(let token) = placeholder.source else { return .other }
                    defer { index += 1 }
                    return .token(token, index: index)
                }
            }
        }
    }

    /// Where a tap URL of this keyed job carries its dynamic message.
    ///
    /// - Throws: `JobInputError` `.templateInvalid` at the token when the template has no such layout.
    public func tapLayout(scheme: any DynamicMessageScheme, options: DynamicMessageOptions) throws(JobInputError)
        -> any TapLayout
    {
        do {
            return try scheme.tapLayout(strings: dynamicTemplateStrings, options: options)
        } catch {
            let position = error.token.map { dynamicTokens[$0].placeholder.position }
            throw JobInputError(.templateInvalid, file: file, position: position, error.description)
        }
    }
}
