import NDEF
import NFCTags

extension Template {
    /// NLEN's size in the NTAG 424 DNA's NDEF file, before the message.
    static let nlenSize = 2

    /// The template's SUN tokens with where each is written.
    var sunTokens: [(placeholder: Placeholder, token: SUNToken)] {
        placeholders.compactMap { placeholder in
            if case .sun(let token) = placeholder.source { return (placeholder, token) }
            return nil
        }
    }

    /// Whether the template has a `{{sun.…}}` token.
    public var hasSUN: Bool { !sunTokens.isEmpty }

    /// Refuses SUN tokens a job cannot honour, naming the template line (issue 25's pre-flight rules): only on an
    /// NTAG 424 DNA job with an `ntag424` section; each token once, without filters; `{{sun.picc}}` never with the
    /// plain mirrors and never without `{{sun.mac}}`; `{{sun.mac}}` only with something for it to authenticate.
    /// NTAG21x mirror tokens on an NTAG 424 DNA job point to the SUN tokens.
    func checkSUN(for manifest: Manifest) throws(JobInputError) {
        func refuse(_ placeholder: Placeholder, _ message: String) -> JobInputError {
            JobInputError(.templateInvalid, file: file, position: placeholder.position, message)
        }
        if manifest.tag == .ntag424, let mirror = mirrorTokens.first?.placeholder {
            throw refuse(
                mirror,
                "'\(mirror.name)' is an NTAG21x mirror; an NTAG 424 DNA mirrors with {{sun.uid}} and {{sun.counter}}, "
                    + "or authenticates with {{sun.picc}} and {{sun.mac}}")
        }
        let tokens = sunTokens
        guard let first = tokens.first else { return }
        guard manifest.tag == .ntag424, manifest.ntag424 != nil else {
            throw refuse(
                first.placeholder,
                "'\(first.placeholder.name)' needs an NTAG 424 DNA job (\"tag\": \"ntag424\") with an \"ntag424\" "
                    + "section naming its master key")
        }
        var seen: Set<SUNToken> = []
        for (placeholder, token) in tokens {
            guard seen.insert(token).inserted else { throw refuse(placeholder, "\(token.written) appears twice") }
            guard placeholder.filters.isEmpty else {
                throw refuse(placeholder, "\(token.written) takes no filters: the chip writes its ASCII as is")
            }
        }
        let picc = tokens.first { $0.token == .picc }
        if picc != nil, let plain = tokens.first(where: { $0.token == .uid || $0.token == .counter }) {
            throw refuse(
                plain.placeholder,
                "\(plain.token.written) is a plain mirror (SDMMetaRead free) and cannot be in one template with "
                    + "\(SUNToken.picc.written) (SDMMetaRead K1); the PICC data already holds UID and counter")
        }
        if let picc, !seen.contains(.mac) {
            throw refuse(
                picc.placeholder,
                "\(SUNToken.picc.written) needs \(SUNToken.mac.written): without it a tap proves nothing")
        }
        if let mac = tokens.first(where: { $0.token == .mac }), seen.count == 1 {
            throw refuse(
                mac.placeholder,
                "\(SUNToken.mac.written) needs \(SUNToken.picc.written), or \(SUNToken.uid.written) and/or "
                    + "\(SUNToken.counter.written), for its session key")
        }
    }

    /// Where this row's SUN tokens land in the NDEF file (NLEN included); `nil` when the template has none.
    ///
    /// Renders the message once with `0`s and once per token with a marker, and takes the first differing byte.
    /// - Throws: `templateInvalid` when a token does not sit in plain characters of a URI or text.
    public func sunLayout(row: JobRow, late: LateBound?) throws(JobInputError) -> SUNLayout? {
        let tokens = sunTokens
        guard !tokens.isEmpty else { return nil }
        let base = late ?? .sizing
        let plain = try render(row: row, late: base).bytes
        var offsets: [SUNToken: Int] = [:]
        for (placeholder, token) in tokens {
            var marked = base
            marked.markedSUN = token
            let offset = try offset(of: placeholder, in: plain, markedBy: marked, row: row, what: token.written)
            offsets[token] = Self.nlenSize + offset  // the NTAG 424 DNA's CC is mapping 2.0: a 2-byte NLEN
        }
        return SUNLayout(offsets: offsets)
    }

    /// The NDEF file settings this row needs on an NTAG 424 DNA job, or a `templateInvalid` problem naming the
    /// first token, row and the chip's rule when the chip would refuse them (`91 9E`).
    public func sunSettings(
        row: JobRow, late: LateBound?, manifest: Manifest, fileSize: Int
    ) throws(JobInputError) -> Type4FileSettings? {
        guard let options = manifest.ntag424, let layout = try sunLayout(row: row, late: late) else { return nil }
        let settings = layout.fileSettings(lock: manifest.lock, macInput: options.macInput)
        do {
            return try settings.validated(fileSize: fileSize, currentCounter: 0)
        } catch {
            let reason = if case .parameter(let rule) = error { rule } else { error.description }
            throw JobInputError(
                .templateInvalid, file: file, position: sunTokens[0].placeholder.position, row: row.row,
                "the NTAG 424 DNA would refuse these SUN offsets: \(reason)")
        }
    }
}
