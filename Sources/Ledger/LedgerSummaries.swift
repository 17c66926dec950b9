import Foundation

/// A registered job.
public struct JobInfo: Sendable, Hashable {
    /// The job name (unique in the ledger).
    public var name: String
    /// SHA-256 of the manifest, lower-case hex.
    public var manifestHash: String
    /// SHA-256 of the template, lower-case hex.
    public var templateHash: String
    /// Rows inserted so far.
    public var totalRows: Int
    /// When the job was registered.
    public var createdAt: Date
    /// When a run first started, if any.
    public var startedAt: Date?
    /// When the last run finished, if any.
    public var finishedAt: Date?
    /// SHA-256 of the records file the rows came from, lower-case hex (`nil`: a ledger from before
    /// schema 5, or no rows added yet).
    public var recordsHash: String? = nil
}

/// Rows of a job by state.
public struct StateCounts: Sendable, Hashable {
    /// Rows not yet given to a tag.
    public var pending = 0
    /// Rows held by a UID, unresolved.
    public var claimed = 0
    /// Rows done.
    public var done = 0
    /// Rows failed.
    public var failed = 0
    /// Rows burned.
    public var burned = 0

    /// Creates zero counts.
    public init() {}

    /// All rows.
    public var total: Int { pending + claimed + done + failed + burned }

    /// The count for `state`.
    public subscript(state: RecordState) -> Int {
        get {
            switch state {
            case .pending: pending
            case .claimed: claimed
            case .done: done
            case .failed: failed
            case .burned: burned
            }
        }
        set {
            switch state {
            case .pending: pending = newValue
            case .claimed: claimed = newValue
            case .done: done = newValue
            case .failed: failed = newValue
            case .burned: burned = newValue
            }
        }
    }
}

/// One row of a job as stored.
public struct RecordInfo: Sendable, Hashable {
    /// The job name.
    public var job: String
    /// The row number.
    public var row: Int
    /// The source fields.
    public var fields: [String: String]
    /// SHA-256 of the rendered message.
    public var messageSHA256: [UInt8]
    /// Length of the rendered message.
    public var messageLength: Int
    /// The state.
    public var state: RecordState
    /// The UID holding or having held the row.
    public var uid: [UInt8]?
    /// The reader that claimed it last.
    public var claimedBy: String?
    /// Attempts recorded against the row.
    public var attempts: Int
    /// When it was last claimed.
    public var claimedAt: Date?
    /// When it reached done, failed or burned.
    public var finishedAt: Date?
}

/// An audit-trail entry (`release`, `returnToPending`, `markFailed`, `manifestAccepted`, …).
public struct LedgerEvent: Sendable, Hashable {
    /// The entry's sequence number.
    public var id: Int
    /// The job, if the event concerns one.
    public var job: String?
    /// The row, if the event concerns one.
    public var row: Int?
    /// What happened (stable name).
    public var kind: String
    /// Who did it (an operator name or a reader).
    public var actor: String?
    /// Free text.
    public var detail: String?
    /// When.
    public var at: Date
}
