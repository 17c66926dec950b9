import NFCTags

/// The chip a job expects (`tag` in a manifest) and the NDEF capacity pre-flight checks against.
///
/// Capacities are the largest NDEF message for the factory layout (`docs/reference/type2.md` §5.4):
///
/// ```
/// ntag213          137  (Lock Control TLV first, NDEF TLV at byte 21)
/// ntag215          492  (data area 496 bytes minus the 3-byte TLV length form and T)
/// ntag216          868
/// ultralight-ev1    46  (MF0UL11: 48 bytes of user memory, pages 04h-0Fh, minus T and 1-byte L)
/// mf0ul11           46
/// mf0ul21          126  (128 bytes, pages 04h-23h, minus T and 1-byte L)
/// type2            137  (any NDEF-formatted Type 2 tag; pre-flight assumes the smallest NTAG21x)
/// ntag424          254  (NTAG 424 DNA: NDEF file E104 of 256 bytes minus the 2-byte NLEN)
/// type4            254  (any Type 4 tag; `type4.minimumFileSize` − 2, default 256 − 2)
/// icode-slix       102  (112 bytes, CC E1 40 0E 01: the smaller MLEN reading, `docs/reference/type5.md` §2.1)
/// icode-slix2      308  (blocks 0–78, CC E1 40 28 01: area 312, T and a 3-byte L)
/// st25tv02k        242  (64 blocks, CC E1 40 1F 01: area 244, T and L)
/// type5            102  (any Type 5 tag; pre-flight assumes the smallest, ICODE SLIX)
/// felica-lite-s    208  (FeliCa Lite-S: NmaxB 13 blocks of 16 bytes after the attribute block)
/// felica-standard  208  (a FeliCa Standard with the NDEF system; pre-flight assumes a Lite-S's NmaxB)
/// type3            208  (any Type 3 tag; the same assumption)
/// ```
///
/// `ultralight-ev1` accepts either EV1 size, so it is sized for the smaller MF0UL11. `type2` and `type4`
/// accept any chip of their family; the line worker must still check each tag's real capacity when
/// it is read.
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
    /// NXP NTAG 424 DNA (a Type 4 tag; its plain face until keyed personalisation).
    case ntag424
    /// Any NFC Forum Type 4 tag (ISO-DEP).
    case type4
    /// NXP ICODE SLIX (a Type 5 tag, ISO/IEC 15693).
    case icodeSLIX = "icode-slix"
    /// NXP ICODE SLIX2.
    case icodeSLIX2 = "icode-slix2"
    /// ST ST25TV02K.
    case st25tv02k
    /// Any NFC Forum Type 5 tag (ISO/IEC 15693).
    case type5
    /// Sony FeliCa Lite-S (RC-S966), a Type 3 tag.
    case felicaLiteS = "felica-lite-s"
    /// A FeliCa Standard card with the NDEF system `12FC`.
    case felicaStandard = "felica-standard"
    /// Any NFC Forum Type 3 tag (FeliCa).
    case type3

    /// The NDEF file a Type 4 job assumes when the manifest does not say (`type4.minimumFileSize`):
    /// the NTAG 424 DNA's file E104.
    public static let defaultType4FileSize = 256

    /// The tag family the target's chips belong to (`type2`, `type3`, `type4`, `type5`).
    public var family: String {
        isType3 ? Type3Family.name : isType4 ? Type4Family.name : isType5 ? Type5Family.name : Type2Family.name
    }

    /// The families a job for this target opens tags with: its own family only (a tag of another
    /// family is refused as `wrongChip` before anything is sent), with the job's Type 4 options.
    public func families(type4 options: Type4JobOptions = Type4JobOptions()) -> TagFamilies {
        if isType3 { return TagFamilies([Type3Family()]) }
        return isType4
            ? TagFamilies([Type4Family(options: Type4Options(honoursCCWriteByte: options.honoursCCWriteByte))])
            : isType5 ? TagFamilies([Type5Family()]) : TagFamilies([Type2Family()])
    }

    /// Whether the target is a Type 3 (FeliCa) tag.
    public var isType3: Bool { [.felicaLiteS, .felicaStandard, .type3].contains(self) }

    /// The hex digits `{{uid}}` renders: 16 for a FeliCa IDm, 14 for a 7-byte UID.
    public var uidHexDigits: Int { isType3 ? 16 : 14 }

    /// Whether the target is a Type 4 (ISO-DEP) tag.
    public var isType4: Bool { self == .ntag424 || self == .type4 }

    /// Whether the target is a Type 5 (ISO/IEC 15693) tag.
    public var isType5: Bool { [.icodeSLIX, .icodeSLIX2, .st25tv02k, .type5].contains(self) }

    /// Bytes of the UID `{{uid}}` renders (as twice as many hex digits): 8 for Type 5, else 7.
    public var uidLength: Int { isType5 ? 8 : 7 }

    /// The largest NDEF message (bytes) pre-flight allows, for the default Type 4 file size.
    public var capacity: Int { capacity(type4FileSize: Self.defaultType4FileSize) }

    /// The largest NDEF message (bytes) pre-flight allows; a Type 4 NDEF file of `type4FileSize` bytes
    /// holds that size − 2 (its NLEN field).
    public func capacity(type4FileSize: Int) -> Int {
        switch self {
        case .ntag424, .type4: type4FileSize - 2
        case .ntag213, .type2: 137
        case .ntag215: 492
        case .ntag216: 868
        case .ultralightEV1, .mf0ul11: 46
        case .mf0ul21: 126
        case .icodeSLIX, .type5: 102
        case .icodeSLIX2: 308
        case .st25tv02k: 242
        case .felicaLiteS, .felicaStandard, .type3: 13 * 16
        }
    }

    /// The chips a tag may identify as for this target (empty: any chip of the target's family,
    /// generic tags included).
    public var acceptedChips: Set<TagChip> {
        switch self {
        case .ntag213: [.ntag213]
        case .ntag215: [.ntag215]
        case .ntag216: [.ntag216]
        case .ultralightEV1: [.mf0ul11, .mf0ul21]
        case .mf0ul11: [.mf0ul11]
        case .mf0ul21: [.mf0ul21]
        case .ntag424: [Type4Family.ntag424]
        case .icodeSLIX: [Type5ChipModel.icodeSLIX.chip]
        case .icodeSLIX2: [Type5ChipModel.icodeSLIX2.chip]
        case .st25tv02k: [Type5ChipModel.st25tv02k.chip]
        case .felicaLiteS: [Type3Family.liteS]
        case .felicaStandard: [Type3Family.standard]
        case .type2, .type3, .type4, .type5: []
        }
    }

    /// Whether the target's chips may have a UID/counter mirror (NTAG21x, or any Type 2 tag).
    public var mayMirror: Bool { [.ntag213, .ntag215, .ntag216, .type2].contains(self) }

    /// The chip the simulated reader presents by default for this target (`sim:CHIP`), so a job for
    /// NTAG213 run without `readers` does not meet NTAG215 tags it must refuse for ever.
    public var simulatorChip: String {
        switch self {
        case .ntag213: "ntag213"
        case .ntag215, .type2: "ntag215"
        case .ntag216: "ntag216"
        case .mf0ul11: "mf0ul11"
        case .ultralightEV1, .mf0ul21: "mf0ul21"
        case .ntag424: "ntag424"
        case .type4: "type4"
        case .icodeSLIX, .type5: "icode-slix"
        case .icodeSLIX2: "icode-slix2"
        case .st25tv02k: "st25tv02k"
        case .felicaLiteS, .felicaStandard, .type3: "felica-lite-s"
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
        case .ntag424: "NTAG 424 DNA"
        case .type4: "any Type 4 tag"
        case .icodeSLIX: "ICODE SLIX"
        case .icodeSLIX2: "ICODE SLIX2"
        case .st25tv02k: "ST25TV02K"
        case .type5: "any Type 5 tag"
        case .felicaLiteS: "FeliCa Lite-S"
        case .felicaStandard: "FeliCa Standard"
        case .type3: "any Type 3 tag"
        }
    }

    /// The manifest spelling.
    public var description: String { rawValue }
}
