import NDEF

/// A tag family: the rule that recognises its tags from the activation data, and how to open one.
///
/// Adding a family is one folder with a `FamilyTag` and a `TagFamily`, plus an entry in
/// `TagFamilies.standard`; the pipeline does not change.
public protocol TagFamily: Sendable {
    /// The family's name (`type2`), recorded with each chip.
    var name: String { get }
    /// Whether this family handles the tag `activation` describes (ATQA/SAK; later ATS, ATR, IDm, UID).
    func handles(_ activation: DetectedTag) -> Bool
    /// The tag on `transceiver`, not yet identified.
    func open(_ transceiver: any Transceiver, activation: DetectedTag?) -> any FamilyTag
    /// The name shown to people (`Type 2`).
    var displayName: String { get }
    /// What the written and skipped units of a write count (Type 2 pages, Type 4 NDEF file offsets).
    var writeUnit: TagWriteUnit { get }
    /// Whether the tag's memory repeats its UID (Type 2 pages 0–2), so inspect cross-checks it.
    var memoryRepeatsUID: Bool { get }
    /// Whether the emulator's airtime for this family includes processing times the reference only assumes.
    var airtimeAssumesProcessingTimes: Bool { get }
    /// The sentence run summaries print when `airtimeAssumesProcessingTimes`: which times are assumed.
    var airtimeAssumptionNote: String? { get }
    /// The keyed personalisation schemes the family offers (`KeyedScheme`); empty for most families.
    var keyedSchemes: [any KeyedScheme] { get }
    /// The air interface the family's tags speak (what a reader backend must reach to serve them).
    var transport: Transport { get }
    /// The family's named chips as manifests, help texts and the simulator know them (`ChipDescriptor`).
    var chips: [ChipDescriptor] { get }
    /// The target "any tag of the family" (`type2`), if manifests may name the family itself.
    var anyChip: ChipDescriptor? { get }
}

/// What one unit of a tag write is: a memory page (4 bytes at a page address) or a piece of a file at an offset.
public enum TagWriteUnit: Sendable, Hashable {
    /// A page address (Type 2 WRITE `A2`).
    case page
    /// A byte offset in the NDEF file (Type 4 UPDATE BINARY).
    case fileOffset
    /// A block number (Type 5 Write Single Block `21`).
    case block
}

extension TagFamily {
    public var displayName: String { name }
    public var writeUnit: TagWriteUnit { .page }
    public var memoryRepeatsUID: Bool { false }
    public var airtimeAssumesProcessingTimes: Bool { false }
    public var airtimeAssumptionNote: String? { nil }
    public var keyedSchemes: [any KeyedScheme] { [] }
    public var chips: [ChipDescriptor] { [] }
    public var anyChip: ChipDescriptor? { nil }
}

/// The families a reader's tags are matched against, in order: the one place a tag's family is decided.
public struct TagFamilies: Sendable {
    /// The families, first match wins.
    public var families: [any TagFamily]

    /// Creates a family list.
    public init(_ families: [any TagFamily]) {
        self.families = families
    }

    /// Every family `provision` ships, then the families registered at start-up (`register(_:)`).
    public static var standard: TagFamilies { registry.all }

    /// The families `provision` ships, in detection order.
    public static let shipped = TagFamilies([Type2Family(), Type4Family(), Type5Family(), Type3Family()])

    /// The family named `name` (a chip's or a ledger row's `family`), if it is in the list.
    public func named(_ name: String?) -> (any TagFamily)? { families.first { $0.name == name } }

    /// Only the family named `name` (a job's tags): a tag of another family is refused in `open`.
    public func only(_ name: String) -> TagFamilies {
        TagFamilies(families.filter { $0.name == name })
    }

    /// `first`'s families, then this list's others: a job's family decides a tag both could handle, and a tag of
    /// another family is still recognised (an audit names it instead of misreading it).
    public func preferring(_ first: TagFamilies) -> TagFamilies {
        let names = Set(first.families.map(\.name))
        return TagFamilies(first.families + families.filter { !names.contains($0.name) })
    }

    /// The family for `activation` (`nil`: none of them; a missing activation is Type 2, the only
    /// family the callers without activation data have).
    public func family(for activation: DetectedTag?) -> (any TagFamily)? {
        guard let activation else { return families.first }
        return families.first { $0.handles(activation) }
    }

    /// Opens the tag on `transceiver` with the family `activation` names.
    ///
    /// - Throws: `TagError.wrongChip` when no family handles the tag (naming the family that would, when
    ///   the list was narrowed to a job's family).
    public func open(_ transceiver: any Transceiver, activation: DetectedTag?) throws -> any FamilyTag {
        guard let family = family(for: activation) else {
            let sak = activation.map { $0.isISO15693 ? "ISO 15693" : "SAK \(Hex.byte($0.sak))h" } ?? "SAK ?h"
            let wanted = families.map(\.name).joined(separator: " or ")
            if let other = Self.standard.family(for: activation) {
                throw TagError(.wrongChip, "tag is a \(other.name) tag (\(sak)), the job takes \(wanted) tags")
            }
            throw TagError(.wrongChip, "no tag family handles this tag (\(sak))")
        }
        return family.open(transceiver, activation: activation)
    }
}
