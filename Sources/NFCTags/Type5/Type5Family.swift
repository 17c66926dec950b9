/// NFC Forum Type 5 tags (ISO/IEC 15693 VICCs: ICODE SLIX/SLIX2, ST25TV/DV, Tag-it HF-I): an activation
/// from an Inventory, which carries a DSFID and an 8-byte UID starting `E0` (`docs/reference/type5.md` §1.1).
///
/// Type 2 and Type 4 require an ISO/IEC 14443-A activation, so no two families claim one tag.
public struct Type5Family: TagFamily {
    public var name: String { Self.name }
    /// The family's name in chips and the ledger.
    public static let name = "type5"
    /// An ISO/IEC 15693 UID: 8 bytes, MSB first, starting `E0` (§1.1).
    public static let uidForm = UIDForm(byteCount: 8, firstByte: 0xE0)
    public var displayName: String { "Type 5" }
    /// Write Single Block `21` writes one block at a block number.
    public var writeUnit: TagWriteUnit { .block }
    /// The chips' `tWrite` is an assumption of the reference (4–6 ms, `[UNV]`).
    public var airtimeAssumesProcessingTimes: Bool { true }
    public var airtimeAssumptionNote: String? {
        "Type 5 airtime includes a modelled EEPROM programming time per Write Single Block and Lock Block that is "
            + "an assumption (tWrite 5 ms by default; the reference gives 4–6 ms, unverified per chip): calibrate "
            + "against hardware before reading it as the chip's."
    }

    /// Creates the family.
    public init() {}

    /// An ISO/IEC 15693 activation (`DetectedTag.isISO15693`).
    public func handles(_ activation: DetectedTag) -> Bool { activation.isISO15693 }

    public func open(_ transceiver: any Transceiver, activation: DetectedTag?) -> any FamilyTag {
        Type5FamilyTag(Type5Tag(transceiver: transceiver, uid: activation?.uid), activation: activation)
    }
}
