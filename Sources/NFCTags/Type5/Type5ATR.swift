/// The PC/SC part 3 ATR a reader builds for an ISO/IEC 15693 tag, and what a PC/SC path makes of the UID
/// the reader gives for it (`docs/reference/type5.md` §3.1–3.2), so the host and the vpcd card share one definition.
///
/// ```
/// 3B 8F 80 01 80 4F 0C A0 00 00 03 06 0B NN NN 00 00 00 00 TCK
///                                     SS = 0B: ISO 15693 part 3; NN NN card name (a hint only)
/// NXP ICODE   … 0B 00 14 00 00 00 00 77
/// TI Tag-it   … 0B 00 12 00 00 00 00 71
/// other (ST)  … 0B 00 00 00 00 00 00 63
/// ```
public struct Type5ATR: Sendable, Hashable {
    /// The card-name bytes (`00 14` NXP ICODE, `00 12` TI, `00 00` other or unknown).
    public let cardName: [UInt8]

    /// The part 3 standard byte of ISO/IEC 15693 part 3.
    public static let standard: UInt8 = 0x0B
    /// Everything before the standard byte: TS, T0, TD1, TD2, category, AID tag and length, PC/SC RID.
    static let prefix: [UInt8] = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06]

    /// Recognises a part 3 storage-card ATR whose standard byte is `0B`; `nil` for any other ATR (a Type 2
    /// tag's `03`, an ISO-DEP card) or a wrong length or TCK.
    public init?(_ atr: [UInt8]) {
        guard atr.count == 20, atr.starts(with: Self.prefix), atr[12] == Self.standard else { return nil }
        guard atr.dropFirst().reduce(0, ^) == 0 else { return nil }  // T0 … TCK XOR to zero
        cardName = Array(atr[13..<15])
    }

    /// The ATR a reader shows for the tag with `uid` (display order): the card name from the manufacturer
    /// byte (`04` NXP → `00 14`, `07` TI → `00 12`, else `00 00`).
    public static func bytes(uid: [UInt8]) -> [UInt8] {
        let manufacturer = uid.count == 8 ? uid[1] : 0
        let name: [UInt8] =
            switch manufacturer {
            case 0x04: [0x00, 0x14]
            case 0x07: [0x00, 0x12]
            default: [0x00, 0x00]
            }
        let body = Array(prefix.dropFirst()) + [standard] + name + [0x00, 0x00, 0x00, 0x00]
        return [0x3B] + body + [body.reduce(0, ^)]
    }

    /// The UID in display order (`E0` first) from what `FF CA 00 00 00` returned, in whichever order the
    /// reader gives it (§3.2: air order `… E0` on ACS readers): an 8-byte UID ending in `E0` and not starting
    /// with it is reversed; anything else is kept as it is.
    public static func displayOrderUID(_ reported: [UInt8]) -> [UInt8] {
        guard reported.count == 8, reported[7] == 0xE0, reported[0] != 0xE0 else { return reported }
        return reported.reversed()
    }

    /// The detection record a PC/SC path reports: the UID in display order and DSFID `00`. A PC/SC reader
    /// does not pass the Inventory's DSFID on; `00` (the factory value of the chips here) stands for it,
    /// and the family reads the real one with Get System Information.
    public func detectedTag(reportedUID: [UInt8]) -> DetectedTag {
        DetectedTag(iso15693UID: Self.displayOrderUID(reportedUID), dsfid: 0x00)
    }
}
