import Foundation

/// One attempt to provision a tag: who, where it stopped, why, and how long each phase took.
public struct AttemptRecord: Sendable, Hashable {
    /// How an attempt ended; the raw value is what the `attempts.outcome` column holds.
    public struct Outcome: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The stored name.
        public let rawValue: String
        /// Wraps a stored name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The row was committed as done.
        public static let done = Outcome(rawValue: "done")
        /// The attempt failed (see `failureClass`); the row may be retried.
        public static let failed = Outcome(rawValue: "failed")
        /// The UID was already provisioned; nothing was written (a duplicate, not a failure).
        public static let skipped = Outcome(rawValue: "skipped")
        /// The stored name.
        public var description: String { rawValue }
    }

    /// Per-phase wall-clock durations in microseconds; `nil` for a phase not reached.
    public struct PhaseDurations: Sendable, Hashable {
        /// Waiting for and anticollision of the tag.
        public var detect: Int?
        /// GET_VERSION, capability container and NDEF status.
        public var identify: Int?
        /// Writing the message.
        public var write: Int?
        /// Reading back and comparing.
        public var verify: Int?
        /// Locking and confirming the lock.
        public var lock: Int?
        /// Time in the ledger: the claim and the done commit.
        public var ledger: Int?
        /// Waiting for the tag to be removed.
        public var removal: Int?

        /// Creates durations (all microseconds).
        public init(
            detect: Int? = nil, identify: Int? = nil, write: Int? = nil, verify: Int? = nil, lock: Int? = nil,
            ledger: Int? = nil, removal: Int? = nil
        ) {
            self.detect = detect
            self.identify = identify
            self.write = write
            self.verify = verify
            self.lock = lock
            self.ledger = ledger
            self.removal = removal
        }
    }

    /// The tag's UID.
    public var uid: [UInt8]
    /// The row it held, if any (`nil` for example for a wrong chip refused before claiming).
    public var row: Int?
    /// The reader name.
    public var reader: String
    /// How it ended.
    public var outcome: Outcome
    /// The failure class (`tagLost`, `timeout`, `nak`, …), `nil` when it did not fail.
    public var failureClass: String?
    /// Free text about the failure (NAK code, expected vs found).
    public var failureDetail: String?
    /// The phase where it stopped (`detect`, `identify`, `write`, `verify`, `lock`, `ledger`, `removal`).
    public var phase: String?
    /// The page where it stopped, if a page operation failed.
    public var page: Int?
    /// Per-phase durations.
    public var durations: PhaseDurations
    /// Frames exchanged with the tag.
    public var exchanges: Int
    /// Modelled air time in microseconds, where the reader's timing is modelled.
    public var modelledAirtimeMicroseconds: Int?
    /// When the attempt began.
    public var startedAt: Date
    /// When it ended.
    public var finishedAt: Date

    /// Creates an attempt.
    public init(
        uid: [UInt8], row: Int?, reader: String, outcome: Outcome, failureClass: String? = nil,
        failureDetail: String? = nil, phase: String? = nil, page: Int? = nil,
        durations: PhaseDurations = PhaseDurations(), exchanges: Int = 0, modelledAirtimeMicroseconds: Int? = nil,
        startedAt: Date, finishedAt: Date
    ) {
        self.uid = uid
        self.row = row
        self.reader = reader
        self.outcome = outcome
        self.failureClass = failureClass
        self.failureDetail = failureDetail
        self.phase = phase
        self.page = page
        self.durations = durations
        self.exchanges = exchanges
        self.modelledAirtimeMicroseconds = modelledAirtimeMicroseconds
        self.startedAt = startedAt
        self.finishedAt = finishedAt
    }
}
