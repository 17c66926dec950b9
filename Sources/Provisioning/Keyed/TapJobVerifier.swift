import Foundation
import Ledger
import NDEF
import NFCTags

/// What `TapJobVerifier` says about one tap URL.
public struct TapJobVerdict: Sendable, Hashable {
    /// The answer, in one word.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The dynamic message is genuine, the tag is a done row of the job, and its counter rose: recorded.
        case valid
        /// The dynamic message does not verify under the job's keys (its data or its MAC).
        case invalid
        /// The message is genuine (the job's keys made it) but its UID is not bound to a done row of this job.
        case unknown
        /// The message is genuine, but its counter is not above the highest one verified for the tag.
        case replayed
        /// NTAG21x (`MACMirrorVerifier`): the MAC matches, but the mirrored counter, which the MAC does not cover,
        /// jumped more than the window above the last one accepted; not stored.
        case suspicious
    }

    /// The answer.
    public var kind: Kind
    /// The UID the message names, when it could be read.
    public var uid: [UInt8]?
    /// The counter the message names, when it could be read.
    public var counter: UInt32?
    /// The job's row the tag carries (`valid`, `replayed`).
    public var row: Int?
    /// The highest counter verified for the tag before this tap (`nil`: none, or not looked up).
    public var previousCounter: Int?
    /// The version of each key (index = key number) the ledger's key journal says the tag holds: the new version
    /// of each key's last done change, `0` (delivery) for a key with none; `nil` when the UID is not known.
    public var keyVersions: [Int]?
    /// Why, in words (no key material). For `invalid` it names nothing the message decrypted to (no UID, counter,
    /// row or job): the same words whether the data did not decrypt, the MAC failed or a genuine message was pasted
    /// into another URL, so the answer is no oracle. `uid`, `counter` and `row` are `nil` then too.
    public var detail: String
    /// For an operator only (`verify-url --operator`, never `serve`): what an `invalid` answer leaves out (the UID
    /// and counter the message decrypted to, the row it belongs to); `nil` otherwise.
    public var explanation: String? = nil
    /// The row's fields as the ledger holds them, read with the tag (`valid`, `replayed`): the caller picks the
    /// public ones (`TapService`) without reading the row again; never shown whole.
    public var fields: [String: String]? = nil
}

/// Verifies tap URLs of a keyed job against its ledger: the job's dynamic message scheme checks the URL with the
/// tag's keys (`DynamicMessageScheme.verifyTap`: UID, counter, MAC verdict), then the UID's done row is found in the
/// job and the counter recorded if it rose (`acceptSUNCounter`).
///
/// The URL layout comes from the job's template and keyed section, never from the user. A URL that fails the MAC is
/// `invalid` whatever its UID: `unknown` needs a genuine message, which only the job's master key can make, so it
/// tells an outsider nothing.
public struct TapJobVerifier: Sendable {
    /// The job name (its rows and counters in the ledger).
    public let job: String
    /// The job's dynamic message.
    public let scheme: any DynamicMessageScheme
    /// A tag's key by UID and key number, as the job's keyed scheme derives it (one at a time: a tap's check needs
    /// one or two).
    public let key: TagKey
    /// Where the URL carries the dynamic message, and what its MAC covers.
    public let layout: any TapLayout
    /// The URIs `run` wrote for a row, dynamic windows as zeros: `(row, fields, uid) → URIs`. When set, a genuine
    /// message in a URL whose other parts are not its own row's (pasted into another product's URL) is `invalid`.
    public var rowURIs: (@Sendable (Int, [String: String], [UInt8]) throws -> [String])?

    /// A verifier for `job` with its scheme, keys and URL layout.
    ///
    /// - Throws: the key derivation's error when the keys cannot verify a tap (a master key of the wrong length).
    public init(job: String, scheme: any DynamicMessageScheme, key: @escaping TagKey, layout: any TapLayout) throws {
        try scheme.checkKeys(key)
        self.job = job
        self.scheme = scheme
        self.key = key
        self.layout = layout
    }

    /// Checks `url` and, when it is valid, records its counter in `ledger` (one transaction with the check of the
    /// highest counter, so the same tap verified twice at once is `valid` once and `replayed` once).
    ///
    /// - Throws: `LedgerError` when the ledger cannot be read or written; a bad URL is a verdict, not an error.
    public func verify(url: String, ledger: any LedgerStore, at time: Date = Date()) async throws(LedgerError)
        -> TapJobVerdict
    {
        switch check(url) {
        case .answered(let verdict): return verdict
        case .genuine(let tap):
            let outcome = await withCheckedContinuation {
                (done: CheckedContinuation<Result<TapJobVerdict, LedgerError>, Never>) in
                record(tap, url: url, ledger: ledger, at: time) { done.resume(returning: $0) }
            }
            return try outcome.get()
        }
    }

    /// `verify(url:ledger:at:)`'s ledger half without a task, for a tap `check(url)` found genuine: `answered` gets
    /// the verdict on the ledger's queue (keep it short).
    public func record(
        _ tap: GenuineTap, url: String, ledger: any LedgerStore, at time: Date,
        answered: @escaping @Sendable (Result<TapJobVerdict, LedgerError>) -> Void
    ) {
        ledger.acceptTap(
            job: job, uid: tap.uid, counter: Int(tap.counter), at: time, check: rowCheck(url, uid: tap.uid)
        ) { [self] outcome in answered(outcome.map { verdict(tap, $0) }) }
    }

    /// What the message alone says: a verdict (`invalid`), or a genuine tap the ledger decides on.
    public enum Checked: Sendable {
        case answered(TapJobVerdict)
        case genuine(GenuineTap)
    }

    /// A message the job's keys made: its UID and counter.
    public struct GenuineTap: Sendable {
        public var uid: [UInt8]
        public var counter: UInt32
    }

    /// The message checked with the tag's keys (`DynamicMessageScheme.verifyTap`), no ledger involved.
    public func check(_ url: String) -> Checked {
        let checked = scheme.verifyTap(url, layout: layout, key: key)
        guard checked.isValid, let uid = checked.uid, let counter = checked.counter else {
            var verdict = TapJobVerdict(
                kind: .invalid, uid: nil, counter: nil, row: nil, previousCounter: nil, keyVersions: nil,
                detail: checked.detail)
            if checked.uid != nil || checked.counter != nil {
                let uidText = checked.uid.map(Hex.compact) ?? "none"
                let counterText = checked.counter.map { "\($0)" } ?? "none"
                verdict.explanation = "the \(scheme.name) message names UID \(uidText), counter \(counterText)"
            }
            return .answered(verdict)
        }
        return .genuine(GenuineTap(uid: uid, counter: counter))
    }

    /// Whether a tag's row wrote this URL (its parts outside the dynamic windows): run on the ledger's queue, between
    /// the read of the tag and the record of its counter. Always true without `rowURIs`.
    private func rowCheck(_ url: String, uid: [UInt8]) -> @Sendable (TapLookup) -> Bool {
        guard let rowURIs else { return { _ in true } }
        let masked = layout.masked(url)
        return { lookup in
            guard let expected = try? rowURIs(lookup.tag.row, lookup.fields, uid) else { return false }
            return expected.contains(masked)
        }
    }

    /// The verdict on a genuine tap once the ledger read and recorded it.
    private func verdict(_ tap: GenuineTap, _ outcome: TapAcceptance) -> TapJobVerdict {
        let name = scheme.name
        let (uid, counter) = (tap.uid, tap.counter)
        let uidText = Hex.compact(uid)
        var verdict = TapJobVerdict(
            kind: .unknown, uid: uid, counter: counter, row: nil, previousCounter: nil, keyVersions: nil,
            detail: "\(name) valid, but UID \(uidText) (counter \(counter)) is not a tag of job \(job)")
        let lookup: TapLookup
        let counted: SUNCounterVerdict
        switch outcome {
        case .unknown: return verdict
        case .refused(let tag):
            return TapJobVerdict(
                kind: .invalid, uid: nil, counter: nil, row: nil, previousCounter: nil, keyVersions: nil,
                detail: TapVerification.notVerified(name),
                explanation:
                    "\(name) valid for UID \(uidText), counter \(counter), but the rest of the URL is not row "
                    + "\(tag.tag.row)'s: a genuine \(name) pasted into another URL")
        case .counted(let tag, let recorded): (lookup, counted) = (tag, recorded)
        }
        let row = lookup.tag.row
        verdict.row = row
        verdict.fields = lookup.fields
        verdict.keyVersions = scheme.keyNumbers.map { lookup.keyVersions[$0] ?? 0 }
        switch counted {
        case .accepted(let previous):
            verdict.kind = .valid
            verdict.previousCounter = previous
            verdict.detail = "\(name) valid; UID \(uidText), row \(row) of job \(job), counter \(counter)"
        case .replayed(let highest):
            verdict.kind = .replayed
            verdict.previousCounter = highest
            verdict.detail =
                "\(name) valid, but counter \(counter) of UID \(uidText) is not above the highest one verified "
                + "(\(highest)): a copied URL"
        }
        return verdict
    }
}
