/// The Type 2 chips `provision` knows, with their memory maps (`docs/reference/type2.md` §2).
///
/// ```
///              pages  user pages  dyn lock  CFG0/CFG1  PWD/PACK  CC (factory)
/// NTAG213       45    04h-27h      28h      29h/2Ah    2Bh/2Ch   E1 10 12 00
/// NTAG215      135    04h-81h      82h      83h/84h    85h/86h   E1 10 3E 00
/// NTAG216      231    04h-E1h      E2h      E3h/E4h    E5h/E6h   E1 10 6D 00
/// MF0UL11       20    04h-0Fh      none     10h/11h    12h/13h   00 00 00 00
/// MF0UL21       41    04h-23h      24h      25h/26h    27h/28h   00 00 00 00
/// ```
public enum ChipModel: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case ntag213
    case ntag215
    case ntag216
    case mf0ul11
    case mf0ul21

    /// The data-sheet facts of one chip: the table every property below reads (`docs/reference/type2.md` §2, §3.2).
    struct Facts: Sendable {
        /// Total number of pages (last page + 1).
        var pageCount: Int
        /// Last user page (inclusive).
        var lastUserPage: Int
        /// The dynamic lock page, if the chip has one.
        var dynamicLockPage: Int?
        /// The capability container as delivered (page 3).
        var factoryCC: [UInt8]
        /// The GET_VERSION answer.
        var version: [UInt8]
        /// Every dynamic lock and block-lock bit, no RFUI bits.
        var dynamicLockAllBits: [UInt8]?
        /// Pages covered by one dynamic lock bit (0: no dynamic lock).
        var pagesPerDynamicLockBit: Int
        /// The marketing name.
        var displayName: String
    }

    /// The chip's row of the table.
    var facts: Facts {
        switch self {
        case .ntag213:
            Facts(
                pageCount: 45, lastUserPage: 0x27, dynamicLockPage: 0x28, factoryCC: [0xE1, 0x10, 0x12, 0x00],
                version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03],
                dynamicLockAllBits: [0xFF, 0x0F, 0x3F, 0x00], pagesPerDynamicLockBit: 2, displayName: "NTAG213")
        case .ntag215:
            Facts(
                pageCount: 135, lastUserPage: 0x81, dynamicLockPage: 0x82, factoryCC: [0xE1, 0x10, 0x3E, 0x00],
                version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03],
                dynamicLockAllBits: [0xFF, 0x00, 0x0F, 0x00], pagesPerDynamicLockBit: 16, displayName: "NTAG215")
        case .ntag216:
            Facts(
                pageCount: 231, lastUserPage: 0xE1, dynamicLockPage: 0xE2, factoryCC: [0xE1, 0x10, 0x6D, 0x00],
                version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03],
                dynamicLockAllBits: [0xFF, 0x3F, 0x7F, 0x00], pagesPerDynamicLockBit: 16, displayName: "NTAG216")
        case .mf0ul11:
            Facts(
                pageCount: 20, lastUserPage: 0x0F, dynamicLockPage: nil, factoryCC: [0x00, 0x00, 0x00, 0x00],
                version: [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0B, 0x03], dynamicLockAllBits: nil,
                pagesPerDynamicLockBit: 0, displayName: "MIFARE Ultralight EV1 MF0UL11")
        case .mf0ul21:
            Facts(
                pageCount: 41, lastUserPage: 0x23, dynamicLockPage: 0x24, factoryCC: [0x00, 0x00, 0x00, 0x00],
                version: [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0E, 0x03],
                dynamicLockAllBits: [0xFF, 0xFF, 0xFF, 0x00], pagesPerDynamicLockBit: 2,
                displayName: "MIFARE Ultralight EV1 MF0UL21")
        }
    }

    /// Total number of pages (last page + 1).
    public var pageCount: Int { facts.pageCount }

    /// The last addressable page.
    public var lastPage: Int { pageCount - 1 }

    /// First user page (always 4).
    public var firstUserPage: Int { 4 }

    /// Last user page (inclusive).
    public var lastUserPage: Int { facts.lastUserPage }

    /// User memory in bytes (144 / 504 / 888 / 48 / 128).
    public var userBytes: Int { (lastUserPage - firstUserPage + 1) * 4 }

    /// The page holding the NDEF TLV's length byte in the factory layout: 05h on NTAG213 (behind its
    /// factory Lock Control TLV, NDEF TLV at byte 21), 04h elsewhere (`docs/reference/type2.md` §2.8, §5.4).
    public var factoryNDEFLengthPage: Int { self == .ntag213 ? 5 : 4 }

    /// The dynamic lock page (LOCK2 LOCK3 LOCK4 RFUI), if the chip has one.
    public var dynamicLockPage: Int? { facts.dynamicLockPage }

    /// CFG0 (MIRROR RFUI MIRROR_PAGE AUTH0); CFG1 is the next page, then PWD, then PACK.
    public var cfg0Page: Int { pageCount - 4 }
    /// CFG1 (ACCESS RFUI RFUI RFUI).
    public var cfg1Page: Int { pageCount - 3 }
    /// PWD (write-only, reads as zeros).
    public var pwdPage: Int { pageCount - 2 }
    /// PACK (write-only, reads as zeros).
    public var packPage: Int { pageCount - 1 }

    /// The capability container as delivered (page 3).
    public var factoryCC: [UInt8] { facts.factoryCC }

    /// The GET_VERSION answer (`docs/reference/type2.md` §3.2).
    public var version: [UInt8] { facts.version }

    /// Every dynamic lock and block-lock bit, no RFUI bits (`docs/reference/type2.md` §2.5, §5.7).
    public var dynamicLockAllBits: [UInt8]? { facts.dynamicLockAllBits }

    /// Pages covered by one dynamic lock bit (2 / 16 / 16; EV1 MF0UL21: 2).
    public var pagesPerDynamicLockBit: Int { facts.pagesPerDynamicLockBit }

    /// Whether the chip is an NTAG21x (NFC counter, mirror, NDEF CC at delivery).
    public var isNTAG: Bool { self == .ntag213 || self == .ntag215 || self == .ntag216 }

    /// The chip for a GET_VERSION answer, matching product type and storage size; `nil` if unknown.
    ///
    /// Subtype, major and minor bytes are not compared, so NTAG213F/TT/C variants map to NTAG213.
    /// Vendor bytes other than `04` (clones) are accepted here and flagged by identification.
    public init?(version: [UInt8]) {
        guard version.count == 8, version[0] == 0x00,
            let model = Self.allCases.first(where: { $0.version[2] == version[2] && $0.version[6] == version[6] })
        else { return nil }
        self = model
    }

    /// The name used in manifests and specs (`ntag213`, …, `mf0ul11`).
    public var description: String { rawValue }

    /// The marketing name shown to people (`NTAG215`, `MIFARE Ultralight EV1 MF0UL11`).
    public var displayName: String { facts.displayName }
}
