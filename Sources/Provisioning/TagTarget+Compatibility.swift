import NFCTags

// remove when H1 lands: members the keyed-personalisation work (issue 41 item 1) still uses while it moves to
// descriptor data (`TagTarget.isKeyed`, `capabilities`, `family`).
extension TagTarget {
    /// remove when H1 lands: the target `ntag424`.
    public static var ntag424: TagTarget { Self.compatibility("ntag424") }
    /// remove when H1 lands: the target `type4`.
    public static var type4: TagTarget { Self.compatibility(Type4Family.name) }
    /// remove when H1 lands: whether the target is a Type 4 (ISO-DEP) tag.
    public var isType4: Bool { family == Type4Family.name }
    /// remove when H1 lands: whether the target is a Type 5 (ISO/IEC 15693) tag.
    public var isType5: Bool { family == Type5Family.name }

    private static func compatibility(_ name: String) -> TagTarget {
        TagTarget(manifestName: name) ?? TagTarget(TagFamilies.standard.descriptors[0])
    }
}
