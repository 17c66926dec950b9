import Foundation

/// What was written to one tag, recorded with the row in `Ledger.markDone`.
public struct TagRecord: Sendable, Hashable {
    /// The tag's UID (7 bytes for Type 2 and Type 4 chips, 8 for Type 3 and Type 5).
    public var uid: [UInt8]
    /// The chip's id (`TagChip.id`; the family's name for a generic tag: `type2`, `type4`).
    public var chip: String
    /// The tag family (`type2`, `type4`).
    public var family: String
    /// SHA-256 of the bytes written (and read back).
    public var bytesSHA256: [UInt8]
    /// Number of bytes written.
    public var byteCount: Int
    /// Whether the tag was permanently locked and the lock state confirmed.
    public var locked: Bool
    /// Originality-signature check result (`valid`, `invalid`, `absent`, …), `nil` when not checked.
    public var signatureStatus: String?
    /// When the verified write finished.
    public var writtenAt: Date
    /// The id of the key that programmed the tag (protection or MAC), if any.
    public var keyID: String?
    /// That key's fingerprint (first 8 bytes of SHA-256, hex), never the key.
    public var keyFingerprint: String?
    /// The dynamic message's read counter the run's own read-back verified (a keyed chip), kept in `sun_counters`
    /// by the same commit so that URL is a replay from then on; not stored on the row.
    public var sunCounter: Int?

    /// Creates a tag record.
    public init(
        uid: [UInt8], chip: String, bytesSHA256: [UInt8], byteCount: Int, locked: Bool,
        signatureStatus: String? = nil, writtenAt: Date, keyID: String? = nil, keyFingerprint: String? = nil,
        family: String = "type2"
    ) {
        self.family = family
        self.keyID = keyID
        self.keyFingerprint = keyFingerprint
        self.uid = uid
        self.chip = chip
        self.bytesSHA256 = bytesSHA256
        self.byteCount = byteCount
        self.locked = locked
        self.signatureStatus = signatureStatus
        self.writtenAt = writtenAt
    }
}

/// A tag as stored in the ledger: the job and row it carries, and when it was recorded.
public struct ProvisionedTag: Sendable, Hashable {
    /// The job name.
    public var job: String
    /// The row number.
    public var row: Int
    /// What was written.
    public var tag: TagRecord
    /// When the ledger committed it.
    public var recordedAt: Date
}

/// A (job, row) pair.
public struct RowReference: Sendable, Hashable, CustomStringConvertible {
    /// The job name.
    public var job: String
    /// The row number.
    public var row: Int

    /// Creates a reference.
    public init(job: String, row: Int) {
        self.job = job
        self.row = row
    }

    /// `row N of job J`.
    public var description: String { "row \(row) of job \(job)" }
}
