/// The dynamic lock bytes and configuration pages of an NTAG21x / Ultralight EV1
/// (`docs/reference/type2.md` §2.5, §2.6), as read by `Type2Tag.readConfiguration()`.
public struct Type2Configuration: Sendable, Hashable {
    /// LOCK2 LOCK3 LOCK4 RFUI, or `nil` on chips without a dynamic lock page (MF0UL11).
    public var dynamicLock: [UInt8]?
    /// CFG0: MIRROR RFUI MIRROR_PAGE AUTH0 (EV1: MOD RFUI RFUI AUTH0).
    public var cfg0: [UInt8]
    /// CFG1: ACCESS RFUI RFUI RFUI (EV1: ACCESS VCTID RFUI RFUI).
    public var cfg1: [UInt8]

    /// Creates a configuration from the page contents.
    public init(dynamicLock: [UInt8]?, cfg0: [UInt8], cfg1: [UInt8]) {
        self.dynamicLock = dynamicLock
        self.cfg0 = cfg0
        self.cfg1 = cfg1
    }

    /// AUTH0 (CFG0 byte 3): first page that needs the password; above the last page = no protection.
    public var auth0: UInt8 { cfg0[3] }
    /// MIRROR byte (CFG0 byte 0): MIRROR_CONF b7–6, MIRROR_BYTE b5–4, STRG_MOD_EN b2.
    public var mirror: UInt8 { cfg0[0] }
    /// MIRROR_PAGE (CFG0 byte 2).
    public var mirrorPage: UInt8 { cfg0[2] }
    /// ACCESS (CFG1 byte 0).
    public var access: UInt8 { cfg1[0] }
    /// PROT (ACCESS b7, `80h`): reads from AUTH0 on need the password too.
    public var readProtected: Bool { access & 0x80 != 0 }
    /// CFGLCK (ACCESS b6, `40h`): CFG0 and CFG1 permanently locked.
    public var configLock: Bool { access & 0x40 != 0 }
    /// NFC_CNT_EN (ACCESS b4, `10h`).
    public var nfcCounterEnabled: Bool { access & 0x10 != 0 }
    /// NFC_CNT_PWD_PROT (ACCESS b3, `08h`).
    public var nfcCounterPasswordProtected: Bool { access & 0x08 != 0 }
    /// AUTHLIM (ACCESS b2–0): allowed failed PWD_AUTH attempts, 0 = unlimited.
    public var authLimit: Int { Int(access & 0x07) }

    /// Whether any user page of `chip` needs the password (AUTH0 ≤ last user page).
    public func isPasswordProtected(on chip: ChipModel) -> Bool { Int(auth0) <= chip.lastUserPage }

    /// Whether any page needs the password, the configuration pages included (AUTH0 ≤ the chip's last
    /// page; AUTH0 = CFG0 protects only CFG0, CFG1, PWD and PACK).
    public func protectsAnyPage(on chip: ChipModel) -> Bool { Int(auth0) <= chip.lastPage }

    /// Whether any dynamic lock bit (LOCK2/LOCK3) is set.
    public var hasDynamicLockBits: Bool {
        guard let dynamicLock else { return false }
        return dynamicLock[0] != 0 || dynamicLock[1] != 0
    }

    /// Pages ≥ 16 made read-only by the dynamic lock bits on `chip` (`docs/reference/type2.md` §2.5).
    public func dynamicallyLockedPages(on chip: ChipModel) -> [Int] {
        guard let dynamicLock, chip.pagesPerDynamicLockBit > 0 else { return [] }
        let word = Int(dynamicLock[0]) | Int(dynamicLock[1]) << 8
        var pages: [Int] = []
        for bit in 0..<16 where word & (1 << bit) != 0 {
            let first = 16 + bit * chip.pagesPerDynamicLockBit
            let last = min(chip.lastUserPage, first + chip.pagesPerDynamicLockBit - 1)
            if first <= last { pages += Array(first...last) }
        }
        return pages
    }
}

extension Type2Tag {
    /// Reads the dynamic lock page and CFG0/CFG1 with one READ `30h` of the lock page (CFG0 on
    /// MF0UL11), as in the pre-write checks of `docs/reference/rf-timing.md` §4; a cached copy is reused.
    ///
    /// - Throws: `Type2Error.unknownChip` on a generic tag; `TransportError`.
    public func readConfiguration() throws -> Type2Configuration {
        try measure("configuration") {
            guard let chip else {
                throw Type2Error(.unknownChip, "the configuration pages of a generic Type 2 tag are unknown")
            }
            let first = chip.dynamicLockPage ?? chip.cfg0Page
            if cache[chip.cfg0Page] == nil || cache[chip.cfg1Page] == nil || cache[first] == nil {
                _ = try read(page: first)
            }
            guard let cfg0 = cache[chip.cfg0Page], let cfg1 = cache[chip.cfg1Page] else {
                throw Type2Error(.invalidResponse, "configuration pages could not be read", page: chip.cfg0Page)
            }
            return Type2Configuration(dynamicLock: chip.dynamicLockPage.flatMap { cache[$0] }, cfg0: cfg0, cfg1: cfg1)
        }
    }
}
