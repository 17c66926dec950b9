/// What a FeliCa Polling `00` answer reports (`docs/reference/type3.md` §1.2): the IDm, the PMm and the system
/// code when the request asked for it (RC `01`). The activation data of a Type 3 tag.
public struct FeliCaActivation: Sendable, Hashable {
    /// The manufacture ID (8 bytes); bytes 0–1 are the manufacturer code (`01 2E` on Sony AIC cards).
    public var idm: [UInt8]
    /// The manufacture parameter (8 bytes): PMm[1] is the IC type, PMm[5]/PMm[6] the read/write timing.
    public var pmm: [UInt8]
    /// The system code the Polling answer named (`12FC` NDEF, `88B4` Lite/Lite-S), when asked for.
    public var systemCode: UInt16?

    /// Creates activation data.
    public init(idm: [UInt8], pmm: [UInt8], systemCode: UInt16? = nil) {
        self.idm = idm
        self.pmm = pmm
        self.systemCode = systemCode
    }

    /// The chip PMm[1] (the IC type) names.
    public var chip: FeliCaChip { FeliCaChip(icType: pmm.count > 1 ? pmm[1] : 0) }
}

/// A FeliCa chip as its PMm IC type byte names it (`docs/reference/type3.md` §1.2).
public enum FeliCaChip: Sendable, Hashable {
    /// FeliCa Lite (RC-S965), IC type `F0`.
    case lite
    /// FeliCa Lite-S (RC-S966), IC type `F1`, or FeliCa Link in Lite-S mode (`F2`).
    case liteS
    /// FeliCa Plug or Link in Plug mode, IC type `E0`/`E1`.
    case plug
    /// Any other IC type: a FeliCa Standard chip.
    case standard(UInt8)

    /// The chip for PMm[1].
    public init(icType: UInt8) {
        switch icType {
        case 0xF0: self = .lite
        case 0xF1, 0xF2: self = .liteS
        case 0xE0, 0xE1: self = .plug
        default: self = .standard(icType)
        }
    }

    /// The chip as the pipeline records it (`type3`/`felica-lite-s`).
    public var tagChip: TagChip {
        switch self {
        case .lite: TagChip(family: Type3Family.name, id: "felica-lite", displayName: "FeliCa Lite")
        case .liteS: Type3Family.liteS
        case .plug: TagChip(family: Type3Family.name, id: "felica-plug", displayName: "FeliCa Plug")
        case .standard: Type3Family.standard
        }
    }
}
