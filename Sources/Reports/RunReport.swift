import Foundation
import Provisioning

/// Everything a run's reports show, gathered from the ledger: the single input of every writer
/// (Markdown, JSON, CSV, HTML), so `provision report` regenerates identical files at any time.
public struct RunReport: Sendable, Hashable, Codable {
    /// One tag that ended `done`.
    public struct TagLine: Sendable, Hashable, Codable {
        /// UID as 14 upper-case hex digits.
        public var uid: String
        /// 1-based manifest row.
        public var row: Int
        /// The rendered `serial` value, if the job has one.
        public var serial: String
        /// SHA-256 of the NDEF message bytes written, lower-case hex.
        public var messageSHA256: String
        /// Whether the tag was permanently locked.
        public var locked: Bool
        /// When the row was committed.
        public var time: Date
        /// The reader that wrote it.
        public var reader: String
        /// The chip's id (`TagChip.id`; the family's name for a generic tag).
        public var chip: String
        /// The tag family (`type2`, `type4`).
        public var family: String

        /// Creates a line.
        public init(
            uid: String, row: Int, serial: String, messageSHA256: String, locked: Bool, time: Date, reader: String,
            chip: String = "", family: String = "type2"
        ) {
            self.chip = chip
            self.family = family
            self.uid = uid
            self.row = row
            self.serial = serial
            self.messageSHA256 = messageSHA256
            self.locked = locked
            self.time = time
            self.reader = reader
        }
    }

    /// One attempt at a tag (successful or not).
    public struct AttemptLine: Sendable, Hashable, Codable {
        /// UID as 14 upper-case hex digits.
        public var uid: String
        /// The row claimed, if any (duplicates and wrong chips claim none).
        public var row: Int?
        /// The reader.
        public var reader: String
        /// `nil` for success, else the failure class.
        public var failure: FailureClass?
        /// Human-readable detail (NAK code, page, expected vs found).
        public var detail: String
        /// The phase in which the attempt stopped (failures) or `ledger` (success).
        public var phase: Phase
        /// When the attempt ended.
        public var time: Date
        /// Measured microseconds per phase.
        public var phaseMicroseconds: [Phase: Double]
        /// Exchanges with the tag.
        public var exchanges: Int
        /// Modelled radio time in microseconds, when the reader's timing is modelled.
        public var airtimeMicroseconds: Double?

        /// Creates a line.
        public init(
            uid: String, row: Int?, reader: String, failure: FailureClass?, detail: String, phase: Phase, time: Date,
            phaseMicroseconds: [Phase: Double], exchanges: Int, airtimeMicroseconds: Double?
        ) {
            self.uid = uid
            self.row = row
            self.reader = reader
            self.failure = failure
            self.detail = detail
            self.phase = phase
            self.time = time
            self.phaseMicroseconds = phaseMicroseconds
            self.exchanges = exchanges
            self.airtimeMicroseconds = airtimeMicroseconds
        }
    }

    /// Row counts by ledger state.
    public struct RowCounts: Sendable, Hashable, Codable {
        public var total = 0
        public var done = 0
        public var failed = 0
        public var burned = 0
        public var claimed = 0
        public var pending = 0

        /// Creates counts.
        public init(total: Int = 0, done: Int = 0, failed: Int = 0, burned: Int = 0, claimed: Int = 0, pending: Int = 0)
        {
            self.total = total
            self.done = done
            self.failed = failed
            self.burned = burned
            self.claimed = claimed
            self.pending = pending
        }
    }

    /// The job name.
    public var job: String
    /// SHA-256 of the manifest file, hex.
    public var manifestSHA256: String
    /// SHA-256 of the template file, hex.
    public var templateSHA256: String
    /// Readers that took part.
    public var readers: [String]
    /// First attempt (or job start).
    public var startedAt: Date?
    /// Last attempt (or job end).
    public var finishedAt: Date?
    /// Row counts.
    public var rows: RowCounts
    /// Tags done, in row order.
    public var tags: [TagLine]
    /// Every attempt, in time order.
    public var attempts: [AttemptLine]
    /// Rows issued again for destroyed tags (`provision reissue`), in row order.
    public var reissues: [ReissueLine] = []

    /// One reissued row: the new row, the done row it repeats, who, why (with the original UID), when.
    public struct ReissueLine: Sendable, Hashable, Codable {
        public var row: Int
        public var original: Int
        public var by: String
        public var detail: String
        public var time: Date?

        /// Creates a line.
        public init(row: Int, original: Int, by: String, detail: String, time: Date?) {
            self.row = row
            self.original = original
            self.by = by
            self.detail = detail
            self.time = time
        }
    }

    /// Creates a report.
    public init(
        job: String, manifestSHA256: String, templateSHA256: String, readers: [String], startedAt: Date?,
        finishedAt: Date?, rows: RowCounts, tags: [TagLine], attempts: [AttemptLine]
    ) {
        self.job = job
        self.manifestSHA256 = manifestSHA256
        self.templateSHA256 = templateSHA256
        self.readers = readers
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.rows = rows
        self.tags = tags
        self.attempts = attempts
    }

    /// The attempts that failed (duplicates included), in time order.
    public var failures: [AttemptLine] { attempts.filter { $0.failure != nil } }
}
