import Synchronization

/// Families added at start-up, in the order they were registered; `TagFamilies.registry` is the process's, which
/// `TagFamilies.standard` includes (a test makes its own, so nothing it registers reaches other tests).
public final class TagFamilyRegistry: Sendable {
    private let families = Mutex<[any TagFamily]>([])

    /// An empty registry.
    public init() {}

    /// Adds `family` after the shipped families (so it never takes a tag a shipped family handles), or replaces
    /// the registered family of the same name.
    public func register(_ family: any TagFamily) {
        families.withLock { families in
            families.removeAll { $0.name == family.name }
            families.append(family)
        }
    }

    /// The families `register(_:)` added.
    public var registered: [any TagFamily] { families.withLock { $0 } }

    /// The shipped families, then the registered ones.
    public var all: TagFamilies { TagFamilies(TagFamilies.shipped.families + registered) }
}

extension TagFamilies {
    /// The process's registry, which `standard` includes.
    public static let registry = TagFamilyRegistry()

    /// Adds `family` to `standard` (`TagFamilyRegistry.register`): how a family outside `NFCTags` (a test's) joins
    /// detection, the manifest's sections and the keyed schemes without an edit here. Register before the first
    /// command runs.
    public static func register(_ family: any TagFamily) { registry.register(family) }

    /// The families `register(_:)` added.
    public static var registered: [any TagFamily] { registry.registered }

    /// Every keyed scheme the families offer, in family order.
    public var keyedSchemes: [any KeyedScheme] { families.flatMap(\.keyedSchemes) }

    /// The keyed scheme whose manifest section is `section`, if a family offers one.
    public func keyedScheme(section: String) -> (any KeyedScheme)? {
        keyedSchemes.first { $0.section == section }
    }

    /// The keyed scheme that personalises every one of `chips` (a job's accepted chips), if any; `nil` for an empty
    /// set (a job that takes any chip of its family is not keyed).
    public func keyedScheme(personalising chips: Set<TagChip>) -> (any KeyedScheme)? {
        guard !chips.isEmpty else { return nil }
        return keyedSchemes.first { chips.isSubset(of: $0.chips) }
    }
}
