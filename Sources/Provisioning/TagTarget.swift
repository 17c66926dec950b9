import NFCTags

/// The chips a job expects (`tag` in a manifest) and the NDEF capacity pre-flight checks against: a look-up
/// over the descriptors the families publish (`TagFamily.chips`, `TagFamily.anyChip`).
///
/// Every fact comes from the descriptor, so a chip is described once, in its family's folder; the manifest's
/// valid `tag` values are `TagTarget.allCases`, generated from `TagFamilies.standard`.
public struct TagTarget: Sendable, Hashable, RawRepresentable, CaseIterable, CustomStringConvertible {
    /// What the family says about the target's chips.
    public let descriptor: ChipDescriptor

    /// Wraps a descriptor.
    public init(_ descriptor: ChipDescriptor) {
        self.descriptor = descriptor
    }

    /// The target a manifest name or alias selects, among every family's descriptors.
    public init?(manifestName: String) {
        guard let descriptor = TagFamilies.standard.descriptor(named: manifestName) else { return nil }
        self.init(descriptor)
    }

    /// The same as `init(manifestName:)`, for `RawRepresentable`.
    public init?(rawValue: String) {
        self.init(manifestName: rawValue)
    }

    /// Every target, in the order of the families and their descriptors (the order help texts list them).
    public static var allCases: [TagTarget] { TagFamilies.standard.descriptors.map(TagTarget.init) }

    /// Every target (`allCases`).
    public static var all: [TagTarget] { allCases }

    /// The NDEF file a Type 4 job assumes when the manifest does not say (`type4.minimumFileSize`).
    public static var defaultType4FileSize: Int { Type4Family.defaultNDEFFileSize }

    /// The manifest spelling.
    public var rawValue: String { descriptor.manifestName }

    /// The manifest spelling.
    public var description: String { rawValue }

    /// The tag family the target's chips belong to (`type2`, `type3`, `type4`, `type5`).
    public var family: String { descriptor.family }

    /// The family itself, from `TagFamilies.standard`.
    public var tagFamily: (any TagFamily)? { TagFamilies.standard.named(family) }

    /// The families a job for this target opens tags with: its own family only (a tag of another
    /// family is refused as `wrongChip` before anything is sent), with the job's Type 4 options.
    public func families(type4 options: Type4JobOptions = Type4JobOptions()) -> TagFamilies {
        if family == Type4Family.name {
            return TagFamilies([Type4Family(options: Type4Options(honoursCCWriteByte: options.honoursCCWriteByte))])
        }
        return TagFamilies.standard.only(family)
    }

    /// The chips a tag may identify as for this target (empty: any chip of the target's family,
    /// generic tags included).
    public var acceptedChips: Set<TagChip> { descriptor.accepts }

    /// The chips a tag may identify as (`acceptedChips`).
    public var chips: Set<TagChip> { descriptor.accepts }

    /// The name shown to people (`any Type 2 tag` for a family-wide target).
    public var displayName: String { descriptor.displayName }

    /// What the target's chips can do.
    public var capabilities: ChipCapabilities { descriptor.capabilities }

    /// Whether the family personalises the target's chips with keys (`TagFamily.keyedSchemes`).
    public var isKeyed: Bool { tagFamily?.isKeyed(descriptor) ?? false }

    /// The form of the identifier `{{uid}}` renders.
    public var uidForm: UIDForm { descriptor.uidForm }

    /// The hex digits `{{uid}}` renders: 16 for an 8-byte UID or IDm, 14 for a 7-byte UID.
    public var uidHexDigits: Int { 2 * uidForm.byteCount }

    /// Bytes of the UID stand-in pre-flight sizes `{{uid}}` with (`LateBound.sizing(uidLength:)`): the form's
    /// length where the form fixes the first byte (ISO/IEC 15693's `E0`), else the 7-byte stand-in, whose text
    /// is widened to `uidHexDigits`.
    public var uidLength: Int { uidForm.firstByte == nil ? UIDForm.sevenByteUID.byteCount : uidForm.byteCount }

    /// The largest NDEF message (bytes) pre-flight allows, for the default Type 4 file size.
    public var capacity: Int { capacity(type4FileSize: Self.defaultType4FileSize) }

    /// The largest NDEF message (bytes) pre-flight allows; an NDEF file of `type4FileSize` bytes holds that size
    /// less its NLEN field.
    public func capacity(type4FileSize: Int) -> Int { descriptor.capacity.bytes(fileSize: type4FileSize) }

    /// Whether the target's chips may have a UID/counter ASCII mirror.
    public var mayMirror: Bool { capabilities.mirrors.contains(.uidCounterASCII) }

    /// The chip the simulated reader presents by default for this target (`sim:CHIP`), so a job for one chip
    /// run without `readers` does not meet tags of another chip it must refuse for ever.
    public var simulatorChip: String { descriptor.jobSimulatorName }
}
