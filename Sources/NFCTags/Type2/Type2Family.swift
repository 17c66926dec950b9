/// NFC Forum Type 2 tags (NTAG21x, MIFARE Ultralight EV1, generic Type 2): SAK `00` after ISO/IEC
/// 14443-3 type A anticollision (`docs/reference/type2.md` §3.1).
public struct Type2Family: TagFamily {
    public var name: String { Self.name }
    /// The family's name in chips and the ledger.
    public static let name = "type2"

    public var displayName: String { "Type 2" }
    /// Pages 0–2 hold the UID and its check bytes.
    public var memoryRepeatsUID: Bool { true }

    /// Creates the family.
    public init() {}

    /// An ISO/IEC 14443-A tag (no FeliCa or ISO/IEC 15693 answer) with SAK bit 6 (ISO/IEC 14443-4, `20h`) and
    /// bit 4 (MIFARE Classic, `08h`) clear.
    public func handles(_ activation: DetectedTag) -> Bool {
        activation.felica == nil && !activation.isISO15693 && activation.sak & 0x28 == 0
    }

    public func open(_ transceiver: any Transceiver, activation: DetectedTag?) -> any FamilyTag {
        Type2FamilyTag(Type2Tag(transceiver: transceiver))
    }
}

extension ChipModel {
    /// The chip as the family-neutral pipeline sees it.
    public var tagChip: TagChip { TagChip(family: Type2Family.name, id: rawValue, displayName: displayName) }

    /// The chip's UID: NTAG21x and MIFARE Ultralight EV1 ship a 7-byte UID (`docs/reference/type2.md` §3.1).
    public var uidForm: UIDForm { .sevenByteUID }

    /// The Type 2 chip `chip` names, if it is one.
    public init?(_ chip: TagChip?) {
        guard let chip, chip.family == Type2Family.name, let model = ChipModel(rawValue: chip.id) else { return nil }
        self = model
    }
}

extension TagChip {
    /// NXP NTAG213.
    public static let ntag213 = ChipModel.ntag213.tagChip
    /// NXP NTAG215.
    public static let ntag215 = ChipModel.ntag215.tagChip
    /// NXP NTAG216.
    public static let ntag216 = ChipModel.ntag216.tagChip
    /// NXP MIFARE Ultralight EV1 MF0UL11.
    public static let mf0ul11 = ChipModel.mf0ul11.tagChip
    /// NXP MIFARE Ultralight EV1 MF0UL21.
    public static let mf0ul21 = ChipModel.mf0ul21.tagChip
}
