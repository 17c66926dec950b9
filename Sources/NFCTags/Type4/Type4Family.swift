/// NFC Forum Type 4 tags (ISO-DEP): placeholder until the family lands (name and chips only).
public struct Type4Family: Sendable {
    /// The family's name in chips and the ledger.
    public static let name = "type4"
    /// NXP NTAG 424 DNA.
    public static let ntag424 = TagChip(family: name, id: "ntag424", displayName: "NTAG 424 DNA")
}
