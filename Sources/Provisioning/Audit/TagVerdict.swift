import Foundation

/// The audit's verdict on one tag, before it becomes a report finding.
public struct TagVerdict: Sendable, Hashable {
    /// The outcomes of an audited tag (the report's `AuditStatus`). The raw values are stable names
    /// used in the audit files: never rename a case.
    public enum Status: String, Sendable, Hashable, CaseIterable, Codable {
        /// Content as recorded, locked as the job requires.
        case pass
        /// The NDEF message differs from the recorded hash, or could not be read.
        case mismatch
        /// The job's ledger has no done row for this UID.
        case unknown
        /// Content as recorded, but not read-only although the job locks tags.
        case unlocked
        /// The job protects tags, and the tag refused the password derived from the job's key (or
        /// the ledger says another key programmed it).
        case authFailed
        /// Content as recorded, but the protection or mirror configuration (AUTH0, PROT, AUTHLIM,
        /// CFGLCK, MIRROR_*, NFC_CNT_EN) is not what the run set, or the tag is locked although the
        /// job does not lock.
        case configMismatch
        /// Pages 0–2 disagree with the UID the tag gave in anticollision, a BCC or INT = `48` (a clone
        /// of a provisioned tag, `docs/reference/type2.md` §11); judged before the content.
        case identityMismatch
        /// The tag could not be read (a transport failure) and was not presented again before the audit ended:
        /// nothing was checked, so it fails the audit rather than passing unseen.
        case unreadable

        /// A never-written tag no job owns: no NDEF formatting, no NDEF message, or an empty one (a spare
        /// presented after the job ended). Reported apart, and not a failure.
        case blank
        /// Whether the finding fails the audit (`pass` and `blank` do not).
        public var isFailure: Bool { self != .pass && self != .blank }
    }

    /// The tag's UID.
    public var uid: [UInt8]
    /// The job's row for this UID, when the ledger has one.
    public var row: Int?
    /// The outcome.
    public var status: Status
    /// What was found, in words (what differed, which other job owns the UID).
    public var detail: String
    /// The NDEF message read from the tag, as it was on the tag (mirrored values included); `nil` when
    /// none was read (not in the ledger, password refused, NDEF unreadable).
    public var message: [UInt8]?
    /// For a `mismatch`, the message the run wrote (`TagAuditor.expectedMessage`), to show beside `message`;
    /// `nil` for every other status, and when the row no longer renders to what the ledger recorded.
    public var expected: [UInt8]?

    /// Creates a verdict.
    public init(
        uid: [UInt8], row: Int?, status: Status, detail: String, message: [UInt8]? = nil, expected: [UInt8]? = nil
    ) {
        self.uid = uid
        self.row = row
        self.status = status
        self.detail = detail
        self.message = message
        self.expected = expected
    }
}
