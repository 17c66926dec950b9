/// A chip as the pipeline sees it, whatever its family: a stable id for manifests and the ledger, a
/// name for people, and the family that knows its memory map.
public struct TagChip: Sendable, Hashable, CustomStringConvertible {
    /// The family's name (`type2`); the one that handles the chip.
    public var family: String
    /// The stable id recorded in the ledger and accepted in manifests (`ntag215`).
    public var id: String
    /// The name shown to people (`NTAG215`).
    public var displayName: String

    /// Creates a chip description.
    public init(family: String, id: String, displayName: String) {
        self.family = family
        self.id = id
        self.displayName = displayName
    }

    public var description: String { displayName }
}
