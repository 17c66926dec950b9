/// NFC Forum Type 3 tags (FeliCa: Lite-S, Standard with the NDEF system): an activation that carries a
/// FeliCa Polling answer (IDm, PMm). Type 2 and Type 4 require ISO/IEC 14443-A data, so no tag is claimed twice.
public struct Type3Family: TagFamily {
    public var name: String { Self.name }
    /// The family's name in chips and the ledger.
    public static let name = "type3"
    /// A FeliCa IDm: 8 bytes, any value (manufacturer code, then the card identification number).
    public static let idmForm = UIDForm(name: "IDm", byteCount: 8)
    /// FeliCa Lite-S (RC-S966), PMm IC type `F1`.
    public static let liteS = TagChip(family: name, id: "felica-lite-s", displayName: "FeliCa Lite-S")
    /// A FeliCa Standard chip with the NDEF system `12FC`.
    public static let standard = TagChip(family: name, id: "felica-standard", displayName: "FeliCa Standard")

    public var displayName: String { "Type 3" }
    /// Units are 16-byte blocks of the NDEF service, block 0 the attribute block.
    public var writeUnit: TagWriteUnit { .page }
    /// The chip's response times are PMm upper bounds, not measured (`docs/reference/type3.md` §1.1).
    public var airtimeAssumesProcessingTimes: Bool { true }
    public var airtimeAssumptionNote: String? {
        "Type 3 airtime includes modelled FeliCa Lite-S processing times that are assumptions (by default "
            + "0.45 ms a read and 3 ms a block write, capped by the PMm response-time bounds): calibrate against "
            + "hardware before reading it as the chip's."
    }

    /// Creates the family.
    public init() {}

    /// An activation with a FeliCa Polling answer.
    public func handles(_ activation: DetectedTag) -> Bool { activation.felica != nil }

    public func open(_ transceiver: any Transceiver, activation: DetectedTag?) -> any FamilyTag {
        Type3FamilyTag(Type3Tag(transceiver: transceiver, activation: activation?.felica))
    }
}
