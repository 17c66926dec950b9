import NDEF

/// The lock section of a Type 2 inspection: static lock bytes, dynamic lock bytes and the CC
/// (`docs/reference/type2.md` §2.5, §5.1); its JSON keys are `inspect --json`'s `locks` object (version 1).
public struct Type2LockSection: InspectionSection, Hashable {
    /// LOCK0 LOCK1 (page 2 bytes 2–3) as hex.
    public var staticBytes: String
    /// Pages 3–15 made read-only by static lock bits.
    public var staticLockedPages: [Int]
    /// LOCK2 LOCK3 LOCK4 RFUI as hex; `nil` without a dynamic lock page or on a generic tag.
    public var dynamicBytes: String?
    /// Pages from 16 up made read-only by dynamic lock bits, as `[first, last]` ranges.
    public var dynamicLockedRanges: [[Int]]
    /// The capability container (page 3) as hex.
    public var cc: String
    /// CC3 write-access nibble (0 writable, 15 read-only).
    public var ccWriteAccess: Int
    /// CC3 is `00` or `0F` (phones read the tag).
    public var ccPhoneCompatible: Bool

    /// The section from pages 0–3 as read and, on a known chip, its configuration pages.
    public init?(pages: [[UInt8]], configuration: Type2Configuration?, chip: ChipModel?) {
        guard pages.count == 4 else { return nil }
        let page2 = pages[2]
        let cc = pages[3]
        let word = Int(page2[2]) | Int(page2[3]) << 8
        var ranges: [[Int]] = []
        if let chip, let configuration {
            for page in configuration.dynamicallyLockedPages(on: chip) {
                if let last = ranges.last, last[1] + 1 == page {
                    ranges[ranges.count - 1][1] = page
                } else {
                    ranges.append([page, page])
                }
            }
        }
        staticBytes = Hex.string(page2[2..<4])
        staticLockedPages = (3...15).filter { word & (1 << $0) != 0 }
        dynamicBytes = configuration?.dynamicLock.map { Hex.string($0) }
        dynamicLockedRanges = ranges
        self.cc = Hex.string(cc)
        ccWriteAccess = Int(cc[3] & 0x0F)
        ccPhoneCompatible = cc[3] == 0x00 || cc[3] == 0x0F
    }

    public var lines: [(label: String, text: String)] {
        let name = Type2ProtectionSection.pageName
        let staticPages = staticLockedPages.isEmpty ? "none" : staticLockedPages.map(name).joined(separator: " ")
        var out: [(label: String, text: String)] = [
            ("Locks", "static \(staticBytes) (pages locked: \(staticPages))")
        ]
        if let dynamicBytes {
            let ranges = dynamicLockedRanges.map { name($0[0]) + "–" + name($0[1]) }
            let locked = ranges.isEmpty ? "none" : ranges.joined(separator: ", ")
            out.append(("", "dynamic \(dynamicBytes) (pages locked: \(locked))"))
        }
        let access = ccWriteAccess == 0 ? "writable" : ccWriteAccess == 0x0F ? "read-only" : "proprietary"
        let phones = ccPhoneCompatible ? "" : " — phones will not read this tag"
        let nibble = String(ccWriteAccess, radix: 16, uppercase: true)
        out.append(("", "CC \(cc) (write access \(nibble): \(access))\(phones)"))
        return out
    }
}

/// The protection section of a Type 2 inspection: AUTH0, ACCESS and the MIRROR byte of an NTAG21x /
/// Ultralight EV1 (`docs/reference/type2.md` §2.6); its JSON keys are `inspect --json`'s `protection` object.
public struct Type2ProtectionSection: InspectionSection, Hashable {
    /// AUTH0: first page that needs the password.
    public var auth0: Int
    /// Whether any user page needs the password.
    public var passwordProtected: Bool
    /// PROT: reads need the password too.
    public var prot: Bool
    /// CFGLCK: CFG0/CFG1 permanently locked.
    public var cfglck: Bool
    /// AUTHLIM: allowed failed PWD_AUTH attempts (0 unlimited).
    public var authlim: Int
    /// NFC_CNT_EN.
    public var nfcCounterEnabled: Bool
    /// MIRROR byte as hex.
    public var mirror: String

    /// The section from the configuration pages of `chip`.
    public init(_ configuration: Type2Configuration, chip: ChipModel) {
        auth0 = Int(configuration.auth0)
        passwordProtected = configuration.isPasswordProtected(on: chip)
        prot = configuration.readProtected
        cfglck = configuration.configLock
        authlim = configuration.authLimit
        nfcCounterEnabled = configuration.nfcCounterEnabled
        mirror = Hex.string([configuration.mirror])
    }

    public var lines: [(label: String, text: String)] {
        let name = Self.pageName
        let auth = passwordProtected ? "password from page \(name(auth0))" : "no password protection"
        return [
            (
                "Protection",
                "AUTH0 \(name(auth0)) (\(auth)), PROT \(prot ? 1 : 0), CFGLCK \(cfglck ? 1 : 0), "
                    + "AUTHLIM \(authlim)\(authlim == 0 ? " (unlimited)" : ""), "
                    + "NFC counter \(nfcCounterEnabled ? "on" : "off"), MIRROR \(mirror)"
            )
        ]
    }

    /// A page number as the reference documents write it (`28h`).
    static func pageName(_ page: Int) -> String {
        let hex = String(page, radix: 16, uppercase: true)
        return (hex.count < 2 ? "0" + hex : hex) + "h"
    }
}
