import NDEF

/// The Type 5 chips `provision` knows, identified from the UID and Get System Information
/// (`docs/reference/type5.md` §1.1, §1.6); every other VICC is the NFC Forum generic `type5` chip.
///
/// ```
/// UID (display order)  E0 MM TT xx …   MM: 04 NXP, 02 ST, 07 TI
/// NXP  TT 01, byte 3 & 18: 10 ICODE SLIX, 08 ICODE SLIX2 (00 SLI, 18 NTAG 5: generic)
/// TI   TT & FE: 00 or 80  Tag-it HF-I Plus (64 blocks of 4 bytes)
/// ST   IC reference & FC (Get System Information): 24 ST25DV04K, 26 ST25DV16K/64K; another ST part
///      with 64 or 80 blocks of 4 bytes is taken for ST25TV02K (its IC reference is not in the reference)
/// ```
public enum Type5ChipModel: String, Sendable, Hashable, CaseIterable {
    /// NXP ICODE SLIX (SL2S2002): 28 blocks of 4 bytes.
    case icodeSLIX = "icode-slix"
    /// NXP ICODE SLIX2 (SL2S2602): 80 blocks of 4 bytes, block 79 the 16-bit counter.
    case icodeSLIX2 = "icode-slix2"
    /// ST ST25TV02K: 64 (or 80) blocks of 4 bytes (`[UNV]`; Get System Information tells).
    case st25tv02k
    /// ST ST25DV04K/16K/64K (IC reference `24` or `26`).
    case st25dv
    /// TI Tag-it HF-I Plus: 64 blocks of 4 bytes; writes and locks need the option flag.
    case tagItHFIPlus = "tagit-hfi-plus"
    /// Any other VICC: NFC Forum T5T behaviour, sized by Get System Information.
    case generic = "type5"

    /// The name shown to people.
    public var displayName: String {
        switch self {
        case .icodeSLIX: "ICODE SLIX"
        case .icodeSLIX2: "ICODE SLIX2"
        case .st25tv02k: "ST25TV02K"
        case .st25dv: "ST25DV"
        case .tagItHFIPlus: "Tag-it HF-I Plus"
        case .generic: "Type 5 tag"
        }
    }

    /// The chip as the pipeline and the ledger name it (`type5`/`icode-slix2`).
    public var chip: TagChip { TagChip(family: Type5Family.name, id: rawValue, displayName: displayName) }

    /// Blocks that may hold the CC and the NDEF TLV (`nil`: all of them). SLIX2: block 79 is the counter.
    public var dataBlockLimit: Int? { self == .icodeSLIX2 ? 79 : nil }

    /// Whether writes and locks carry the option flag (TI: flags `62`, §1.7). NXP parts never get it.
    public var needsOptionFlagOnWrites: Bool { self == .tagItHFIPlus }

    /// Whether error `13` answered to a write or lock is taken as success (Android on TI parts, §1.4).
    public var ignoresNotProgrammed: Bool { self == .tagItHFIPlus }

    /// The IC references of other ST parts (§1.1, masked with `FC`), which are not ST25TV02K.
    static let otherSTReferences: Set<UInt8> = [0x24, 0x26, 0x5A & 0xFC, 0x4E & 0xFC, 0x5E & 0xFC, 0x20, 0x28, 0x44]

    /// The chip `uid` (display order) and `information` name.
    public static func identify(uid: [UInt8], information: Type5SystemInformation?) -> Type5ChipModel {
        guard uid.count == 8, uid[0] == 0xE0 else { return .generic }
        switch uid[1] {
        case 0x04 where uid[2] == 0x01:
            switch uid[3] & 0x18 {
            case 0x10: return .icodeSLIX
            case 0x08: return .icodeSLIX2
            default: return .generic
            }
        case 0x07 where uid[2] & 0xFE == 0x00 || uid[2] & 0xFE == 0x80:
            return .tagItHFIPlus
        case 0x02:
            guard let reference = information?.icReference.map({ $0 & 0xFC }) else { return .generic }
            if reference == 0x24 || reference == 0x26 { return .st25dv }
            guard !otherSTReferences.contains(reference), information?.blockSize == 4,
                let count = information?.blockCount, count == 64 || count == 80
            else { return .generic }
            return .st25tv02k
        default:
            return .generic
        }
    }

    /// The chip a `TagChip` names, if it is a Type 5 chip.
    public init?(_ chip: TagChip?) {
        guard let chip, chip.family == Type5Family.name, let model = Type5ChipModel(rawValue: chip.id) else {
            return nil
        }
        self = model
    }
}

/// The UID of a VICC as `provision` records it: 16 upper-case hex digits, MSB first (`E0…`).
public enum Type5UID {
    /// `E004015012345678` for the display-order bytes.
    public static func text(_ uid: [UInt8]) -> String { Hex.compact(uid) }
}
