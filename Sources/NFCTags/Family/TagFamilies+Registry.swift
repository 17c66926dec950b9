import Synchronization

extension TagFamilies {
    /// The families added at start-up, in the order they were registered.
    private static let registry = Mutex<[any TagFamily]>([])

    /// Adds `family` to `standard`, after the shipped families (so it never takes a tag a shipped family
    /// handles), or replaces the registered family of the same name: how a family outside `NFCTags` (a test's)
    /// joins detection, the manifest's sections and the keyed schemes without an edit here. Register before the
    /// first command runs.
    public static func register(_ family: any TagFamily) {
        registry.withLock { families in
            families.removeAll { $0.name == family.name }
            families.append(family)
        }
    }

    /// The families `register(_:)` added.
    public static var registered: [any TagFamily] { registry.withLock { $0 } }

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
