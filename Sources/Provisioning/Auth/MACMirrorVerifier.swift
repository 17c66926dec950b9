import Foundation
import Ledger
import NDEF
import NFCTags

/// Why an NTAG21x job's tap verifier cannot be made from its template and keys.
public enum MACMirrorSetupError: Error, Sendable, Hashable {
    /// The template holds no `{{mac:…}}` and the job has no keyed section: its taps carry nothing to verify.
    case noMAC(job: String)
    /// A template string with a `{{mac:…}}` names no UID (`{{uid}}` or a UID mirror): a tap cannot be looked up.
    case noUID
    /// The key a `{{mac:…}}` is computed with is not loaded.
    case keyNotLoaded(String)

    /// One line for the operator (no key material).
    public var message: String {
        switch self {
        case .noMAC(let job):
            "job \(job) has no {{mac:…}} in its template and no keyed section: its taps carry nothing to verify"
        case .noUID: "the template has no {{uid}} next to its {{mac:…}}; cannot look the tag up"
        case .keyNotLoaded(let id): "key '\(id)' is not loaded"
        }
    }
}

/// Verifies the tap URLs of an NTAG21x job (a static `{{mac:…}}` in the URL next to the UID, with the chip's NFC
/// counter mirror or without) against its ledger: the URL is taken apart along the template, the UID looked up in
/// the job, the MAC recomputed over the row's values, every other value compared with the row, and a mirrored
/// counter accepted only when it rises by at most `counterWindow` (`LedgerStore.acceptCounter`: the check and the
/// move forward are one statement, so of concurrent verifiers exactly one answers `valid`).
///
/// The counter is outside the MAC: `replayed` and `suspicious` catch careless copies, not a forger
/// (docs/authentication.md, "What a forged counter can do"). A UID outside the job costs the same HMAC as a tag of
/// the job and answers `invalid` in the same words as a bad MAC, so the answer tells nobody which UIDs a job holds
/// (`unknown` only when `revealsUnknownUIDs`, for `verify-url --operator`). An `invalid` verdict carries no UID,
/// counter or row.
public struct MACMirrorVerifier: TapVerifier {
    /// The largest rise of a mirrored counter accepted unless told otherwise.
    public static let defaultCounterWindow = 1000
    /// The one reason a URL that matches the template does not verify: a MAC or a value that does not match, or
    /// a UID outside the job.
    public static let notVerified = "the MAC does not match (tampered URL, another key, or not a tag of this job)"

    public let job: String
    let template: Template
    let keys: [String: SecretKey]
    /// The largest rise of a mirrored counter accepted (stored); a larger jump is `suspicious` and not stored.
    public let counterWindow: Int
    /// Whether a UID outside the job is `unknown` (local diagnostics) instead of `invalid`.
    public let revealsUnknownUIDs: Bool

    /// A verifier of `job`'s taps along `template` with the job's loaded `keys`.
    ///
    /// - Throws: `MACMirrorSetupError` when the template has no MAC, a MAC string names no UID, or a MAC's key is
    ///   not in `keys`.
    public init(
        job: String, template: Template, keys: [String: SecretKey], counterWindow: Int = defaultCounterWindow,
        revealsUnknownUIDs: Bool = false
    ) throws(MACMirrorSetupError) {
        var macs = 0
        for text in template.texts(template.root) {
            let sources = text.segments.compactMap { segment -> Placeholder.Source? in
                if case .placeholder(let placeholder) = segment { placeholder.source } else { nil }
            }
            for case .mac(let key, _, _) in sources {
                macs += 1
                guard keys[key] != nil else { throw .keyNotLoaded(key) }
                let namesUID = sources.contains { source in
                    if case .mirror(let kind) = source { kind != .counter } else { source == .uid }
                }
                guard namesUID else { throw .noUID }
            }
        }
        guard macs > 0 else { throw .noMAC(job: job) }
        self.job = job
        self.template = template
        self.keys = keys
        self.counterWindow = counterWindow
        self.revealsUnknownUIDs = revealsUnknownUIDs
    }

    public func verify(url: String, ledger: any LedgerStore, at time: Date = Date()) async throws(LedgerError)
        -> TapJobVerdict
    {
        guard let tap = template.matchTapURL(url), let uidText = tap.uid, let uid = Hex.bytes(uidText),
            let key = keys[tap.keyID]
        else { return Self.invalid("the URL does not match the template (or a mirror window is not the chip's form)") }
        var found: JobRow?
        if let tag = try await ledger.tags(uid: uid).first(where: { $0.job == job }),
            let fields = try await ledger.rowFields(job: job, row: tag.row)
        {
            found = JobRow(row: tag.row, line: 0, fields: fields)
        }
        var inputs: [String]? = []
        for input in tap.inputs {
            guard let row = found, let value = input == "uid" ? uidText : template.value(named: input, row: row) else {
                inputs = nil
                break
            }
            inputs?.append(value)
        }
        // A UID outside the job computes the MAC too (`macMatches`), so the answer's time does not tell it apart.
        let matches: Bool
        do {
            matches = try tap.macMatches(key: key, job: job, inputs: inputs)
        } catch {
            return Self.invalid("cannot check: \(error)")
        }
        guard matches, let row = found else {
            if found == nil, revealsUnknownUIDs {
                return TapJobVerdict(
                    kind: .unknown, uid: uid, counter: nil, row: nil, previousCounter: nil, keyVersions: nil,
                    detail: "UID \(uidText) is not a tag of job \(job)")
            }
            var verdict = Self.invalid(Self.notVerified)
            if found != nil, inputs == nil {
                verdict.explanation = "a MAC input of UID \(uidText)'s row cannot be recomputed after writing"
            }
            return verdict
        }
        // Every other value in the URL must be what the template renders for this tag's row.
        let late = LateBound(uid: uid, timestamp: time)
        for (placeholder, value) in tap.others where placeholder.source != .timestamp {
            guard let expected = try? template.value(of: placeholder, row: row, late: late), expected == value else {
                var verdict = Self.invalid(Self.notVerified)
                verdict.explanation =
                    "MAC valid for UID \(uidText), but '\(placeholder.name)' is not row \(row.row)'s value"
                return verdict
            }
        }
        var verdict = TapJobVerdict(
            kind: .valid, uid: uid, counter: nil, row: row.row, previousCounter: nil, keyVersions: nil,
            detail: "MAC valid; UID \(uidText), row \(row.row) of job \(job)")
        guard let counter = tap.counter else { return verdict }
        verdict.counter = UInt32(counter)
        let unproven = "counter not authenticated on NTAG21x"
        switch try await ledger.acceptCounter(job: job, uid: uid, counter: counter, window: counterWindow) {
        case .accepted:
            verdict.detail = "MAC valid; \(unproven); UID \(uidText), row \(row.row) of job \(job), counter \(counter)"
        case .replayed(let last):
            verdict.kind = .replayed
            verdict.previousCounter = last
            verdict.detail = "MAC valid; counter \(counter) of UID \(uidText) is not above the last one seen (\(last))"
        case .implausible(let last):
            verdict.kind = .suspicious
            verdict.previousCounter = last
            verdict.detail =
                "MAC valid; \(unproven); counter \(counter) of UID \(uidText) is more than \(counterWindow) above "
                + "the last one seen (\(last)): not stored"
        }
        return verdict
    }

    /// An `invalid` verdict saying `detail` and naming nothing of the URL.
    static func invalid(_ detail: String) -> TapJobVerdict {
        TapJobVerdict(
            kind: .invalid, uid: nil, counter: nil, row: nil, previousCounter: nil, keyVersions: nil, detail: detail)
    }
}
