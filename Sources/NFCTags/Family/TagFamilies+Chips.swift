extension TagFamily {
    /// Every descriptor the family publishes: its named chips, then its family-wide target.
    public var descriptors: [ChipDescriptor] { chips + (anyChip.map { [$0] } ?? []) }

    /// Whether `descriptor`'s chips are personalised with keys by one of the family's `keyedSchemes`.
    public func isKeyed(_ descriptor: ChipDescriptor) -> Bool {
        keyedSchemes.contains { !$0.chips.isDisjoint(with: descriptor.accepts) }
    }
}

extension TagFamilies {
    /// Every descriptor of every family, in family order (the order help texts and docs list them).
    public var descriptors: [ChipDescriptor] { families.flatMap(\.descriptors) }

    /// The descriptor a manifest name or alias selects.
    public func descriptor(named name: String) -> ChipDescriptor? {
        descriptors.first { $0.names.contains(name) }
    }

    /// The families whose tags speak one of `transports`, in the order of `transports` (a backend's reach).
    public func reached(by transports: [Transport]) -> [any TagFamily] {
        transports.flatMap { transport in families.filter { $0.transport == transport } }
    }

    /// The manifest names of the descriptors `include` selects, as a list for people: `a, b, c`.
    public func manifestNames(where include: (ChipDescriptor) -> Bool = { _ in true }) -> [String] {
        descriptors.filter(include).map(\.manifestName)
    }
}
