/// What pre-flight found: row count, message sizes, capacity headroom and every problem (capped).
public struct PreFlightSummary: Sendable {
    /// The job name.
    public var job: String
    /// The chip target.
    public var tag: TagTarget
    /// The largest NDEF message the target holds (bytes).
    public var capacity: Int
    /// Rows read (good and bad).
    public var rows: Int = 0
    /// Rows that rendered and fit.
    public var validRows: Int = 0
    /// The smallest NDEF message (bytes), 0 when no row rendered.
    public var messageBytesMin: Int = 0
    /// The largest NDEF message (bytes), 0 when no row rendered.
    public var messageBytesMax: Int = 0
    /// The mean NDEF message size (bytes).
    public var messageBytesMean: Double = 0
    /// The largest Type 2 TLV area (NDEF TLV and terminator) written for a message (bytes).
    public var tlvBytesMax: Int = 0
    /// Bytes to spare at the largest message (capacity − max), negative when some row is too large.
    public var headroom: Int { capacity - messageBytesMax }
    /// Whether any placeholder is late-bound (sized at its maximum).
    public var hasLateBoundValues = false
    /// The first problems found, at most the limit given to pre-flight, in row order.
    public var problems: [JobInputError] = []
    /// How many problems there were in all.
    public var problemCount: Int = 0
    /// The most bytes of the row file held in memory at once.
    public var peakBufferedBytes: Int = 0
    /// Distinct `unique` values remembered (the only state that grows with the row count).
    public var uniqueValuesTracked: Int = 0

    /// Whether the job may run.
    public var isValid: Bool { problemCount == 0 }

    /// Creates an empty summary; `capacity` defaults to the target's (`Manifest.capacity` knows the
    /// job's Type 4 file size).
    public init(job: String, tag: TagTarget, capacity: Int? = nil) {
        self.job = job
        self.tag = tag
        self.capacity = capacity ?? tag.capacity
    }
}
