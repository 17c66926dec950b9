/// The ATR a PC/SC reader builds for a contactless ISO/IEC 14443-4 card (PC/SC part 3, `docs/reference/type4.md`
/// §1.9): `3B 8n 80 01 <n historical bytes> TCK`, so a PC/SC path can hand the Type 4 family a
/// `DetectedTag` with SAK `20` although it never sees the SAK.
///
/// ```
/// 3B        TS, direct convention
/// 8n        T0: TD1 follows, n historical bytes (0–15)
/// 80        TD1: TD2 follows, protocol T=0
/// 01        TD2: protocol T=1, nothing follows
/// h1 … hn   the historical bytes of the ATS (type A) or ATQB data (type B)
/// TCK       XOR of T0 … hn
/// ```
///
/// NTAG 424 DNA: `3B 81 80 01 80 80` (one historical byte, `80`). The ATR alone cannot tell an NTAG 424
/// DNA from a MIFARE DESFire; GetVersion `90 60` does (`Type4Tag.getVersion()`).
public struct Type4ATR: Sendable, Hashable {
    /// The historical bytes the ATR carries (for type A: those of the card's ATS).
    public let historicalBytes: [UInt8]
    /// How a storage card's historical bytes start: category `80`, application identifier `4F 0C`, PC/SC RID.
    static let storageCardPrefix: [UInt8] = [0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06]

    /// Recognises a part 3 ATR of an ISO/IEC 14443-4 card; `nil` for any other ATR — a storage card such as a
    /// Type 2 tag (`3B 8F 80 01 80 4F 0C A0 00 00 03 06 …`, the same frame around PC/SC's RID), a contact
    /// card — or for a wrong length or a wrong TCK.
    public init?(_ atr: [UInt8]) {
        guard atr.count >= 5, atr[0] == 0x3B, atr[1] & 0xF0 == 0x80, atr[2] == 0x80, atr[3] == 0x01 else {
            return nil
        }
        let count = Int(atr[1] & 0x0F)
        guard atr.count == 4 + count + 1 else { return nil }
        guard atr.dropFirst().reduce(0, ^) == 0 else { return nil }  // T0 … TCK XOR to zero
        let historical = Array(atr[4..<(4 + count)])
        // A PC/SC part 3 storage card (a Type 2 tag, MIFARE Classic …) carries the PC/SC RID A000000306.
        guard !historical.starts(with: Self.storageCardPrefix) else { return nil }
        historicalBytes = historical
    }

    /// The ATR for `historicalBytes` (at most 15): what a PC/SC reader shows for an ISO-DEP card.
    public static func bytes(historicalBytes: [UInt8]) -> [UInt8] {
        precondition(historicalBytes.count <= 15, "an ATR carries at most 15 historical bytes")
        let body = [0x80 | UInt8(historicalBytes.count), 0x80, 0x01] + historicalBytes
        return [0x3B] + body + [body.reduce(0, ^)]
    }

    /// The detection record a PC/SC path reports for this card: SAK `20` (ISO/IEC 14443-4), so
    /// `TagFamilies` opens it with the Type 4 family; `ats` as the reader returns it (`FF CA 01 00 00`),
    /// or empty when the reader cannot.
    public func detectedTag(uid: [UInt8], ats: [UInt8] = []) -> DetectedTag {
        DetectedTag(uid: uid, atqa: 0x0000, sak: 0x20, ats: ats)
    }
}
