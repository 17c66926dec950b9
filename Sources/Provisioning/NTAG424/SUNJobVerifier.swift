import Crypto
import Foundation
import Ledger
import NDEF
import NFCTags

/// What `SUNJobVerifier` says about one tap URL.
public struct SUNJobVerdict: Sendable, Hashable {
    /// The answer, in one word.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The SUN is genuine, the tag is a done row of the job, and its counter rose: recorded.
        case valid
        /// The PICC data does not decrypt to a valid tag byte under K1, or the MAC does not match K2 of its UID.
        case invalid
        /// The SUN is genuine (the job's keys made it) but its UID is not bound to a done row of this job.
        case unknown
        /// The SUN is genuine, but its counter is not above the highest one verified for the tag.
        case replayed
    }

    /// The answer.
    public var kind: Kind
    /// The UID from the PICC data, when it decrypted.
    public var uid: [UInt8]?
    /// SDMReadCtr from the PICC data, when it decrypted.
    public var counter: UInt32?
    /// The job's row the tag carries (`valid`, `replayed`).
    public var row: Int?
    /// The highest counter verified for the tag before this tap (`nil`: none, or not looked up).
    public var previousCounter: Int?
    /// The version of K0–K4 (index = key number) the ledger's key journal says the tag holds: the new version
    /// of each key's last done change, `0` (delivery) for a key with none; `nil` when the UID is not known.
    public var keyVersions: [Int]?
    /// Why, in words (no key material).
    public var detail: String
}

/// Verifies tap URLs of a keyed NTAG 424 DNA job (the manifest's `ntag424` section) against its ledger: decrypts
/// the PICC data with the job's K1, checks the SUN MAC with K2 diversified for that UID (`docs/reference/type4.md`
/// §3.3–§3.5), finds the UID's done row in the job, and records the counter if it rose (`acceptSUNCounter`).
///
/// The URL layout (the PICC data's and the MAC's query parameters, what the MAC covers) comes from the job's
/// template and `ntag424` section, never from the user. A URL that fails the MAC is `invalid` whatever its UID:
/// `unknown` needs a genuine SUN, which only the job's master key can make, so it tells an outsider nothing.
public struct SUNJobVerifier: Sendable {
    /// The job name (its rows and counters in the ledger).
    public let job: String
    /// The job's K0–K4.
    public let keys: NTAG424JobKeys
    /// Where the URL carries the SUN, and what its MAC covers.
    public let layout: SUNURLLayout
    /// K1, the same for every tag of the job.
    private let metaReadKey: SecretKey
    /// The URIs `run` wrote for a row, SUN placeholders as zeros: `(row, fields, uid) → URIs`. When set, a genuine
    /// SUN in a URL whose other parts are not its own row's (pasted into another product's URL) is `invalid`.
    public var rowURIs: (@Sendable (Int, [String: String], [UInt8]) throws -> [String])?

    /// A verifier for `job` with its keys and URL layout.
    ///
    /// - Throws: `AES128Error.keyLength` when the master key is not AES-128 (16 bytes).
    public init(job: String, keys: NTAG424JobKeys, layout: SUNURLLayout) throws(AES128Error) {
        self.job = job
        self.keys = keys
        self.layout = layout
        metaReadKey = try keys.metaReadKey()
    }

    /// Checks `url` and, when it is valid, records its counter in `ledger` (one transaction with the check of the
    /// highest counter, so the same tap verified twice at once is `valid` once and `replayed` once).
    ///
    /// - Throws: `LedgerError` when the ledger cannot be read or written; a bad URL is a verdict, not an error.
    public func verify(url: String, ledger: any LedgerStore, at time: Date = Date()) async throws(LedgerError)
        -> SUNJobVerdict
    {
        let keys = self.keys
        let checked = SUNVerifier.verify(url: url, layout: layout, metaReadKey: metaReadKey.bytes) { uid in
            try keys.fileReadKey(uid: uid).bytes
        }
        var verdict = SUNJobVerdict(
            kind: .invalid, uid: checked.uid, counter: checked.counter, row: nil, previousCounter: nil,
            keyVersions: nil, detail: checked.detail)
        guard checked.isValid, let uid = checked.uid, let counter = checked.counter else { return verdict }
        let uidText = Hex.compact(uid)
        guard let tag = try await ledger.tags(uid: uid).first(where: { $0.job == job }) else {
            verdict.kind = .unknown
            verdict.detail = "SUN valid, but UID \(uidText) (counter \(counter)) is not a tag of job \(job)"
            return verdict
        }
        verdict.row = tag.row
        if let rowURIs {
            let fields = try await ledger.record(job: job, row: tag.row)?.fields ?? [:]
            guard let expected = try? rowURIs(tag.row, fields, uid), expected.contains(layout.masked(url)) else {
                verdict.kind = .invalid
                verdict.detail =
                    "SUN valid for UID \(uidText), but the rest of the URL is not row \(tag.row)'s: a genuine SUN "
                    + "pasted into another URL"
                return verdict
            }
        }
        let journal = try await ledger.keyVersions(job: job, uid: uid)
        verdict.keyVersions = (0...4).map { journal[$0] ?? 0 }
        switch try await ledger.acceptSUNCounter(job: job, uid: uid, counter: Int(counter), at: time) {
        case .accepted(let previous):
            verdict.kind = .valid
            verdict.previousCounter = previous
            verdict.detail = "SUN valid; UID \(uidText), row \(tag.row) of job \(job), counter \(counter)"
        case .replayed(let highest):
            verdict.kind = .replayed
            verdict.previousCounter = highest
            verdict.detail =
                "SUN valid, but counter \(counter) of UID \(uidText) is not above the highest one verified "
                + "(\(highest)): a copied URL"
        }
        return verdict
    }

    /// The URL layout of a job's template: the query parameters `{{sun.picc}}` and `{{sun.mac}}` are the values
    /// of (`…?NAME={{sun.picc}}`, `…&NAME={{sun.mac}}`, in one string), and the `ntag424` section's `macInput`.
    ///
    /// - Throws: `JobInputError` `.templateInvalid` at the token when the template has no `{{sun.picc}}` with
    ///   `{{sun.mac}}` (plain mirrors carry no PICC data to decrypt), or a token is not a query parameter's value.
    public static func layout(of template: Template, options: NTAG424JobOptions) throws(JobInputError)
        -> SUNURLLayout
    {
        func fail(_ position: TextPosition?, _ message: String) -> JobInputError {
            JobInputError(.templateInvalid, file: template.file, position: position, message)
        }
        let tokens = template.sunTokens
        guard tokens.contains(where: { $0.token == .picc }), tokens.contains(where: { $0.token == .mac }) else {
            throw fail(
                tokens.first?.placeholder.position,
                "verify-url checks a SUN of \(SUNToken.picc.written) and \(SUNToken.mac.written); this template has "
                    + (tokens.isEmpty ? "no SUN token" : tokens.map(\.token.written).joined(separator: ", ")))
        }
        for text in template.texts(template.root) {
            var names: [SUNToken: String] = [:]
            var previous: TemplateText.Segment?
            for segment in text.segments {
                defer { previous = segment }
                guard case .placeholder(let placeholder) = segment, case .sun(let token) = placeholder.source,
                    token == .picc || token == .mac
                else { continue }
                guard case .literal(let before) = previous, let name = parameterName(endingWith: before) else {
                    throw fail(
                        placeholder.position,
                        "\(token.written) must be the value of a query parameter (…?NAME=\(token.written) or "
                            + "…&NAME=\(token.written)) for verify-url to find it in a tap URL")
                }
                names[token] = name
            }
            guard let picc = names[.picc] else { continue }
            guard let mac = names[.mac], mac != picc else {
                throw fail(
                    tokens.first { $0.token == .mac }?.placeholder.position,
                    "\(SUNToken.mac.written) must be another query parameter of the URL that holds "
                        + SUNToken.picc.written)
            }
            return SUNURLLayout(picc: picc, mac: mac, macInput: options.macInput == .empty ? .empty : .picc)
        }
        throw fail(nil, "no template string holds \(SUNToken.picc.written)")
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
