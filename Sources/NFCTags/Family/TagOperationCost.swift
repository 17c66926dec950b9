/// What one tag operation cost on the air, whatever the family: exchanges, re-activations and
/// modelled radio time.
///
/// `Type2Tag` records one per public operation (`identify`, `detect`, `read`, `write`, `verify`,
/// `lock`, …) so callers can report exchanges and radio time per phase (`docs/reference/rf-timing.md` §4–§5).
public struct TagOperationCost: Sendable, Hashable {
    /// The operation's name (`identify`, `detect`, `read`, `write`, `verify`, `lock`).
    public var name: String
    /// Command/answer exchanges sent through `Transceiver.transceive` (failed ones included).
    public var exchanges: Int
    /// Calls to `Transceiver.reactivate()`.
    public var reactivations: Int
    /// WRITE commands among `exchanges`.
    public var writes: Int
    /// Modelled radio time in microseconds, or `nil` when the transceiver cannot know it.
    public var airtimeMicroseconds: Double?

    /// Creates a cost record.
    public init(
        name: String, exchanges: Int = 0, reactivations: Int = 0, writes: Int = 0,
        airtimeMicroseconds: Double? = nil
    ) {
        self.name = name
        self.exchanges = exchanges
        self.reactivations = reactivations
        self.writes = writes
        self.airtimeMicroseconds = airtimeMicroseconds
    }
}

/// The Type 2 operations' name for `TagOperationCost`.
public typealias Type2OperationCost = TagOperationCost
