import NDEF
import NFCTags

/// What a run set in one tag's configuration pages, for `audit` to compare with what the tag holds:
/// AUTH0, PROT, CFGLCK and AUTHLIM from the job's `protect` section (`ProtectionPlan`, as `run`
/// writes them), and MIRROR_CONF, MIRROR_BYTE, MIRROR_PAGE and NFC_CNT_EN where the row's mirror
/// token landed (`MirrorPlan`) (`type2-ntag.md` §2.6, §6).
///
/// Fields the run leaves as it finds them (STRG_MOD_EN, NFC_CNT_PWD_PROT, NFC_CNT_EN without a
/// counter mirror, the mirror bits of a template without a mirror) are not compared.
public struct ExpectedConfiguration: Sendable, Hashable {
    /// The tag's protection as the run set it, if the job protects tags.
    public var protection: ProtectionPlan?
    /// Where the run put the mirror window, if the template has a mirror token.
    public var mirror: MirrorPlan?

    /// Creates the expectation; `nil` when there is nothing to compare.
    public init?(protection: ProtectionPlan?, mirror: MirrorPlan?) {
        guard protection != nil || mirror != nil else { return nil }
        self.protection = protection
        self.mirror = mirror
    }

    /// Every field of `found` that differs, in words: the datasheet name, the expected and the found
    /// value (upper-case hex), and the byte it sits in (`AUTH0 expected 04, found FF (protection off)`,
    /// `AUTHLIM expected 5, found 3 (ACCESS 03)`). Empty when all match. PWD and PACK are never shown.
    public func differences(in found: Type2Configuration, on chip: ChipModel) -> [String] {
        var out: [String] = []
        let access = "ACCESS \(Self.hex(found.access))"
        if let protection {
            let auth0 = UInt8(protection.auth0Page(on: chip))
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
