import Crypto
import Ledger
import NDEF
import NFCTags

/// Classifies a tag read back during an audit against the ledger and the job's lock setting; never
/// writes to the tag.
///
/// Typical use: `record(in:)` picks the job's ledger entry for the UID; without one the tag is
/// `unknown` and need not be read (`verdictWithoutRecord`); otherwise `TagReadBack.read(on:)` reads it
/// and `classify` compares, with `expectedConfiguration` when the job protects or mirrors.
public struct TagAuditor: Sendable {
    /// The job being audited.
    public var job: String
    /// Whether the job locks tags (`lock: permanent`): tags must then be read-only.
    public var lockRequired: Bool
    /// The `protect` key of a job that protects tags: each tag is authenticated with its derived
    /// password (`TagPassword`) before it is read.
    public var protectionKey: SecretKey?
    /// The job's `protect` section: AUTH0, PROT, AUTHLIM and CFGLCK are checked when it and
    /// `protectionKey` are set.
    public var protection: ManifestSecurity.Protection?
    /// Where the run put a row's mirror window, `(row, fields, uid) → plan` — the run's own
    /// `LineJob.mirror` — when the template has a mirror token.
    public var mirror: (@Sendable (Int, [String: String], [UInt8]) throws -> MirrorPlan?)?
    /// The job's `identityCheck`: under `record` the run wrote clones knowingly, so the audit does not
    /// judge identity either.
    public var identityCheck: IdentityCheck = .refuse
    /// How a keyed job's tags are judged (dynamic message, settings, key versions), when the job has keys.
    public var keyed: KeyedAudit?
    /// Renders a row as the run did (the run's own `LineJob.render`), so a `mismatch` can show the records the run
    /// wrote beside those the tag holds; `nil`: a mismatch shows what the tag holds only.
    public var render: LineJob.Renderer?

    /// Creates an auditor for `job`.
    public init(
        job: String, lockRequired: Bool, protectionKey: SecretKey? = nil,
        protection: ManifestSecurity.Protection? = nil,
        mirror: (@Sendable (Int, [String: String], [UInt8]) throws -> MirrorPlan?)? = nil
    ) {
        self.job = job
        self.lockRequired = lockRequired
        self.protectionKey = protectionKey
        self.protection = protection
        self.mirror = mirror
    }

    /// What the run set in the configuration pages of the tag `uid` (its row's `mirror`, computed by
    /// the caller with `self.mirror`), `nil` when the job neither protects nor mirrors.
    ///
    /// - Throws: when the protection key's token cannot compute the password.
    public func expectedConfiguration(uid: [UInt8], mirror: MirrorPlan?) throws -> ExpectedConfiguration? {
        var plan: ProtectionPlan?
        if let protection, let protectionKey { plan = try ProtectionPlan(protection, key: protectionKey, uid: uid) }
        return ExpectedConfiguration(protection: plan, mirror: mirror)
    }

    /// The password to authenticate the tag `uid` with, `nil` when the job does not protect tags.
    ///
    /// - Throws: when the key's token cannot compute it.
    public func password(for uid: [UInt8]) throws -> TagPassword? {
        try protectionKey.map { key in try TagPassword(key: key, uid: uid) }
    }

    /// The `authFailed` verdict, without touching the tag, when the ledger says another key programmed
    /// it: a PWD_AUTH with the wrong password would only count toward the tag's AUTHLIM. A fingerprint of the
    /// scheme before `v1` is checked as such; one that cannot be checked (a token key) is no conflict.
    public func keyConflict(_ recorded: TagRecord, row: Int) -> TagVerdict? {
        guard let key = protectionKey, let fingerprint = recorded.keyFingerprint,
            key.matches(fingerprint: fingerprint) == false
        else { return nil }
        return TagVerdict(
            uid: recorded.uid, row: row, status: .authFailed,
            detail: "the ledger says key \(recorded.keyID ?? "?") with fingerprint \(fingerprint) programmed this tag, "
                + "the audit has \(key); no PWD_AUTH sent (a wrong password counts toward AUTHLIM)")
    }

    /// The ledger entry of this job among every entry the ledger has for a UID.
    public func record(in entries: [ProvisionedTag]) -> ProvisionedTag? {
        entries.first { $0.job == job }
    }

    /// The verdict for a UID this job never finished: `blank` when `reading` shows a never-written tag no other
    /// job owns, else `unknown`, naming another job that did (`others`: the ledger's rows for the UID, e.g.
    /// `entries.map { RowReference(job: $0.job, row: $0.row) }`).
    public func verdictWithoutRecord(uid: [UInt8], others: [RowReference], reading: TagReadBack? = nil) -> TagVerdict {
        let other = others.first { $0.job != job }
        if let reading, reading.isBlank, other == nil {
            let what = reading.message.map { $0.isEmpty ? "an empty NDEF message" : "one empty NDEF record" }
            return TagVerdict(
                uid: uid, row: nil, status: .blank,
                detail: "blank tag, never written (\(what ?? "not NDEF formatted")); not in job \(job)",
                message: reading.message)
        }
        var detail = "UID not done in job \(job)"
        if let other { detail += "; it belongs to row \(other.row) of job \(other.job)" }
        return TagVerdict(uid: uid, row: nil, status: .unknown, detail: detail, message: reading?.message)
    }

    /// Judges a tag read back against the ledger's record and the job's lock and configuration.
    ///
    /// Checks, in order: the identity of pages 0–2 (a clone, under `identityCheck: refuse`), the
    /// message's SHA-256 (a mirror window put back to its placeholder), the lock state the job asks
    /// for, the configuration pages against `expected`. The verdict carries the message as read, so
    /// reports can show what the tag holds.
    public func classify(
        _ reading: TagReadBack, recorded: TagRecord, row: Int, expected: ExpectedConfiguration? = nil,
        keyed: KeyedExpectation? = nil
    ) -> TagVerdict {
        var verdict = judge(reading, recorded: recorded, row: row, expected: expected, keyed: keyed)
        verdict.message = reading.message
        return verdict
    }

    /// The verdict of `classify`, without the message.
    private func judge(
        _ reading: TagReadBack, recorded: TagRecord, row: Int, expected: ExpectedConfiguration?,
        keyed: KeyedExpectation?
    ) -> TagVerdict {
        let uid = recorded.uid
        if let refused = reading.authenticationRefused {
            let key = protectionKey.map { " derived from key \($0.id)" } ?? ""
            return TagVerdict(
                uid: uid, row: row, status: .authFailed,
                detail: "the tag refused the password\(key): \(refused) (another key, or the password was changed)")
        }
        if identityCheck == .refuse, !reading.identityAnomalies.isEmpty {
            return TagVerdict(
                uid: uid, row: row, status: .identityMismatch,
                detail: "identity check: " + reading.identityAnomalies.joined(separator: "; ")
                    + " (a clone of the provisioned tag, or a misread)")
        }
        guard var message = reading.message else {
            let why = reading.unreadable ?? "no NDEF message"
            return TagVerdict(uid: uid, row: row, status: .mismatch, detail: "NDEF unreadable: \(why)")
        }
        if let keyed {
            guard Digest.sha256(keyed.message) == recorded.bytesSHA256 else {
                return TagVerdict(
                    uid: uid, row: row, status: .mismatch,
                    detail: "the row's template no longer renders to the message the run wrote (ledger SHA-256)")
            }
            return judgeKeyed(reading, message: message, uid: uid, row: row, expected: keyed)
        }
        if let mirror = expected?.mirror {
            switch mirror.restoringPlaceholder(in: message, uid: uid) {
            case .success(let restored): message = restored
            case .failure(let error):
                return TagVerdict(uid: uid, row: row, status: .mismatch, detail: error.description)
            }
        }
        let hash = Digest.sha256(message)
        if hash != recorded.bytesSHA256 {
            var detail =
                "NDEF message SHA-256 \(Self.short(hash)) differs from the ledger's \(Self.short(recorded.bytesSHA256))"
            if message.count != recorded.byteCount {
                detail += "; \(message.count) bytes read, \(recorded.byteCount) written"
            } else {
                detail += " (same length, \(message.count) bytes)"
            }
            return TagVerdict(uid: uid, row: row, status: .mismatch, detail: detail)
        }
        let differences = configurationDifferences(reading, expected: expected)
        if lockRequired && !reading.isLockedReadOnly {
            let also = differences.isEmpty ? "" : "; " + differences.joined(separator: "; ")
            return TagVerdict(
                uid: uid, row: row, status: .unlocked, detail: "content matches but " + Self.lockState(reading) + also)
        }
        if !differences.isEmpty {
            return TagVerdict(
                uid: uid, row: row, status: .configMismatch,
                detail: "content matches but " + differences.joined(separator: "; "))
        }
        let configText = expected == nil ? "" : ", configuration as set"
        let lockText =
            (reading.isLockedReadOnly ? ", locked" : "") + (reading.authenticated ? ", password accepted" : "")
        let detail = "content matches (\(message.count) bytes\(lockText)\(configText))"
        return TagVerdict(uid: uid, row: row, status: .pass, detail: detail)
    }

    /// The configuration fields that differ from `expected`, and a lock the job did not ask for.
    func configurationDifferences(_ reading: TagReadBack, expected: ExpectedConfiguration?) -> [String] {
        var out: [String] = []
        if !lockRequired && reading.isLockedReadOnly {
            out.append("lock expected none, found locked (\(reading.lock?.fields ?? "lock state unread"))")
        }
        guard let expected else { return out }
        if let configuration = reading.configuration {
            out += expected.differences(in: configuration)
        } else {
            out.append("configuration pages unreadable: \(reading.configurationUnreadable ?? "not read")")
        }
        return out
    }

    /// Says why the tag is not read-only, from the lock state its family read (Type 2: CC3, static lock bytes).
    static func lockState(_ reading: TagReadBack) -> String {
        var parts = reading.lock?.openReasons ?? []
        if parts.isEmpty { parts.append("the lock state could not be read") }
        return "not locked: " + parts.joined(separator: ", ")
    }

    /// The message the run wrote on the tag of a `mismatch`, to show beside what it holds: `rendered` (the row
    /// rendered again, or a keyed job's template message) when its SHA-256 is the ledger's, else `nil` (the template
    /// or row changed since, an appended message), never a guess.
    ///
    /// The ledger's message has the mirror window's placeholder (`{{uidMirror}}`, …) and a keyed job's template the
    /// zeros the chip mirrors over. A window the tag `read` shows correctly is copied into the expected message,
    /// so records differ only where the content does; a window the tag shows wrongly keeps its placeholder.
    public func expectedMessage(rendered: [UInt8], recorded: TagRecord, read: [UInt8]?, mirror: MirrorPlan?)
        -> [UInt8]?
    {
        guard Digest.sha256(rendered) == recorded.bytesSHA256 else { return nil }
        guard let mirror, let read, case .success = mirror.restoringPlaceholder(in: read, uid: recorded.uid),
            let shown = mirror.windowInMessage(messageLength: read.count),
            let window = mirror.windowInMessage(messageLength: rendered.count)
        else { return rendered }
        var expected = rendered
        expected.replaceSubrange(window, with: read[shown])
        return expected
    }

    /// The first 8 bytes of a digest as upper-case hex, then `…`.
    static func short(_ digest: [UInt8]) -> String {
        Hex.compact(Array(digest.prefix(8))) + "…"
    }
}
