import Crypto
import Ledger
import NDEF
import NFCTags

/// Classifies a tag read back during an audit against the ledger and the job's lock setting; never
/// writes to the tag.
///
/// Typical use: `record(in:)` picks the job's ledger entry for the UID; without one the tag is
/// `unknown` and need not be read (`verdictWithoutRecord`); otherwise `TagReadBack.read(on:)` reads it
/// and `classify` compares.
public struct TagAuditor: Sendable {
    /// The job being audited.
    public var job: String
    /// Whether the job locks tags (`lock: permanent`): tags must then be read-only.
    public var lockRequired: Bool
    /// The `protect` key of a job that protects tags: each tag is authenticated with its derived
    /// password (`TagPassword`) before it is read.
    public var protectionKey: SecretKey?

    /// Creates an auditor for `job`.
    public init(job: String, lockRequired: Bool, protectionKey: SecretKey? = nil) {
        self.job = job
        self.lockRequired = lockRequired
        self.protectionKey = protectionKey
    }

    /// The password to authenticate the tag `uid` with, `nil` when the job does not protect tags.
    public func password(for uid: [UInt8]) -> TagPassword? {
        protectionKey.map { TagPassword(key: $0, uid: uid) }
    }

    /// The `authFailed` verdict, without touching the tag, when the ledger says another key programmed
    /// it: a PWD_AUTH with the wrong password would only count toward the tag's AUTHLIM.
    public func keyConflict(_ recorded: TagRecord, row: Int) -> TagVerdict? {
        guard let key = protectionKey, let fingerprint = recorded.keyFingerprint, fingerprint != key.fingerprint else {
            return nil
        }
        return TagVerdict(
            uid: recorded.uid, row: row, status: .authFailed,
            detail: "the ledger says key \(recorded.keyID ?? "?") with fingerprint \(fingerprint) programmed this tag, "
                + "the audit has \(key); no PWD_AUTH sent (a wrong password counts toward AUTHLIM)")
    }

    /// The ledger entry of this job among every entry the ledger has for a UID.
    public func record(in entries: [ProvisionedTag]) -> ProvisionedTag? {
        entries.first { $0.job == job }
    }

    /// The `unknown` verdict for a UID this job never finished, naming another job that did
    /// (`others`: the ledger's rows for the UID, e.g. `entries.map { RowReference(job: $0.job, row: $0.row) }`).
    public func verdictWithoutRecord(uid: [UInt8], others: [RowReference]) -> TagVerdict {
        var detail = "UID not done in job \(job)"
        if let other = others.first(where: { $0.job != job }) {
            detail += "; it belongs to row \(other.row) of job \(other.job)"
        }
        return TagVerdict(uid: uid, row: nil, status: .unknown, detail: detail)
    }

    /// Compares what was read with the ledger's record: the message's SHA-256 first, then the lock
    /// state when the job locks.
    public func classify(_ reading: TagReadBack, recorded: TagRecord, row: Int) -> TagVerdict {
        let uid = recorded.uid
        if let refused = reading.authenticationRefused {
            let key = protectionKey.map { " derived from key \($0.id)" } ?? ""
            return TagVerdict(
                uid: uid, row: row, status: .authFailed,
                detail: "the tag refused the password\(key): \(refused) (another key, or the password was changed)")
        }
        guard let message = reading.message else {
            let why = reading.unreadable ?? "no NDEF message"
            return TagVerdict(uid: uid, row: row, status: .mismatch, detail: "NDEF unreadable: \(why)")
        }
        let hash = Digest.sha256(message)
        if hash != recorded.bytesSHA256 {
            var detail = "NDEF message SHA-256 \(Self.short(hash)) differs from the ledger's \(Self.short(recorded.bytesSHA256))"
            if message.count != recorded.byteCount {
                detail += "; \(message.count) bytes read, \(recorded.byteCount) written"
            } else {
                detail += " (same length, \(message.count) bytes)"
            }
            return TagVerdict(uid: uid, row: row, status: .mismatch, detail: detail)
        }
        if lockRequired && !reading.isLockedReadOnly {
            return TagVerdict(uid: uid, row: row, status: .unlocked, detail: "content matches but " + Self.lockState(reading))
        }
        let lockText = (reading.isLockedReadOnly ? ", locked" : "") + (reading.authenticated ? ", password accepted" : "")
        return TagVerdict(uid: uid, row: row, status: .pass, detail: "content matches (\(message.count) bytes\(lockText))")
    }

    /// Says why the tag is not read-only: CC3 and static lock bytes as read.
    static func lockState(_ reading: TagReadBack) -> String {
        var parts: [String] = []
        if let cc3 = reading.cc3, cc3 & 0x0F != 0x0F { parts.append("CC3 is \(Hex.string([cc3])) (write access open)") }
        if let lock = reading.staticLock, lock != [0xFF, 0xFF] { parts.append("static lock bytes are \(Hex.string(lock))") }
        if parts.isEmpty { parts.append("the lock state could not be read") }
        return "not locked: " + parts.joined(separator: ", ")
    }

    /// The first 8 bytes of a digest as upper-case hex, then `…`.
    static func short(_ digest: [UInt8]) -> String {
        Hex.compact(Array(digest.prefix(8))) + "…"
    }
}
