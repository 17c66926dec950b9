import NDEF

/// An NTAG21x / Ultralight EV1 configuration as read, with the chip that places its fields: what the
/// Type 2 family hands an audit through `ConfigurationReadable` (`docs/reference/type2.md` §2.6, §6).
public struct Type2ChipConfiguration: ChipConfiguration, Hashable {
    /// The dynamic lock bytes, CFG0 and CFG1 as read (PWD and PACK, which read as `00`, are not kept).
    public var pages: Type2Configuration
    /// The chip whose memory map places AUTH0 and the configuration pages.
    public var chip: ChipModel

    /// Pairs `pages` with `chip`.
    public init(_ pages: Type2Configuration, chip: ChipModel) {
        self.pages = pages
        self.chip = chip
    }

    /// AUTH0, PROT, CFGLCK and AUTHLIM against `protection`; MIRROR_CONF, MIRROR_BYTE, MIRROR_PAGE and
    /// NFC_CNT_EN (with a counter) against `mirror` (`AUTH0 expected 04, found FF (protection off)`,
    /// `AUTHLIM expected 5, found 3 (ACCESS 03)`). Fields a run leaves as it finds them (STRG_MOD_EN,
    /// NFC_CNT_PWD_PROT, NFC_CNT_EN without a counter mirror) are not compared.
    public func differences(protection: PasswordProtection?, mirror: MirrorPlan?) -> [String] {
        var out: [String] = []
        let found = pages
        let access = "ACCESS \(Self.hex(found.access))"
        if let protection {
            let auth0 = UInt8(Type2FamilyTag.auth0Page(protection.start, on: chip))
            if found.auth0 != auth0 {
                let off = Int(found.auth0) > chip.lastPage ? " (protection off)" : ""
                out.append("AUTH0 expected \(Self.hex(auth0)), found \(Self.hex(found.auth0))\(off)")
            }
            let bits = protection.accessBits
            Self.compare("PROT", bits >> 7 & 1, found.access >> 7 & 1, in: access, into: &out)
            Self.compare("CFGLCK", bits >> 6 & 1, found.access >> 6 & 1, in: access, into: &out)
            Self.compare("AUTHLIM", bits & 0x07, found.access & 0x07, in: access, into: &out)
        }
        if let mirror {
            let expected = mirror.mirrorByte(keeping: found.mirror)
            let byte = "MIRROR \(Self.hex(found.mirror))"
            Self.compare("MIRROR_CONF", expected >> 6, found.mirror >> 6, in: byte, into: &out)
            Self.compare("MIRROR_BYTE", expected >> 4 & 0x03, found.mirror >> 4 & 0x03, in: byte, into: &out)
            let page = UInt8(truncatingIfNeeded: mirror.page)
            if found.mirrorPage != page {
                out.append("MIRROR_PAGE expected \(Self.hex(page)), found \(Self.hex(found.mirrorPage))")
            }
            if mirror.kind.usesCounter {
                Self.compare("NFC_CNT_EN", 1, found.nfcCounterEnabled ? 1 : 0, in: access, into: &out)
            }
        }
        return out
    }

    /// Appends `name expected E, found F (byte)` when a bit field differs (values below 10h: one digit).
    private static func compare(
        _ name: String, _ expected: UInt8, _ found: UInt8, in byte: String, into out: inout [String]
    ) {
        guard expected != found else { return }
        out.append(
            "\(name) expected \(String(expected, radix: 16, uppercase: true)), "
                + "found \(String(found, radix: 16, uppercase: true)) (\(byte))")
    }

    private static func hex(_ byte: UInt8) -> String { Hex.string([byte]) }
}
