import NFCTags

/// The chip a job expects (`tag` in a manifest) and the NDEF capacity pre-flight checks against.
///
/// Capacities are the largest NDEF message for the factory layout (`type2-ntag.md` §5.4):
///
/// ```
/// ntag213          137  (Lock Control TLV first, NDEF TLV at byte 21)
/// ntag215          492  (data area 496 bytes minus the 3-byte TLV length form and T)
/// ntag216          868
/// ultralight-ev1    46  (MF0UL11: 48 bytes of user memory, pages 04h-0Fh, minus T and 1-byte L)
/// mf0ul11           46
/// mf0ul21          126  (128 bytes, pages 04h-23h, minus T and 1-byte L)
/// type2            137  (any NDEF-formatted Type 2 tag; pre-flight assumes the smallest NTAG21x)
/// ```
///
/// `ultralight-ev1` accepts either EV1 size, so it is sized for the smaller MF0UL11. `type2` accepts
/// any chip; the line worker must still check each tag's real capacity when it is read.
public enum TagTarget: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// NXP NTAG213 (144 bytes of user memory).
    case ntag213
    /// NXP NTAG215 (504 bytes of user memory).
    case ntag215
    /// NXP NTAG216 (888 bytes of user memory).
    case ntag216
    /// MIFARE Ultralight EV1, either size.
    case ultralightEV1 = "ultralight-ev1"
    /// MIFARE Ultralight EV1 MF0UL11.
    case mf0ul11
    /// MIFARE Ultralight EV1 MF0UL21.
    case mf0ul21
    /// Any NFC Forum Type 2 tag.
    case type2

    /// The largest NDEF message (bytes) pre-flight allows.
    public var capacity: Int {
        switch self {
        case .ntag213, .type2: 137
        case .ntag215: 492
        case .ntag216: 868
        case .ultralightEV1, .mf0ul11: 46
        case .mf0ul21: 126
        }
    }

    /// The chips a tag may identify as for this target.
    public var acceptedChips: Set<ChipModel> {
        switch self {
        case .ntag213: [.ntag213]
        case .ntag215: [.ntag215]
        case .ntag216: [.ntag216]
        case .ultralightEV1: [.mf0ul11, .mf0ul21]
        case .mf0ul11: [.mf0ul11]
        case .mf0ul21: [.mf0ul21]
        case .type2: Set(ChipModel.allCases)
        }
    }

    /// The chip the simulated reader presents by default for this target (`sim:CHIP`), so a job for
    /// NTAG213 run without `readers` does not meet NTAG215 tags it must refuse for ever.
    public var simulatorChip: ChipModel {
        switch self {
        case .ntag213: .ntag213
        case .ntag215, .type2: .ntag215
        case .ntag216: .ntag216
        case .mf0ul11: .mf0ul11
        case .ultralightEV1, .mf0ul21: .mf0ul21
        }
    }

    /// The name shown to people (`NTAG215`, `any Type 2 tag`).
    public var displayName: String {
        switch self {
        case .ntag213: "NTAG213"
        case .ntag215: "NTAG215"
        case .ntag216: "NTAG216"
        case .ultralightEV1: "Ultralight EV1"
        case .mf0ul11: "Ultralight EV1 MF0UL11"
        case .mf0ul21: "Ultralight EV1 MF0UL21"
        case .type2: "any Type 2 tag"
        }
    }

    /// The manifest spelling.
    public var description: String { rawValue }
}
