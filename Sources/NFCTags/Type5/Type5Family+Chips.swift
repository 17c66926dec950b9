/// The Type 5 chips as manifests, help texts and the simulator name them.
///
/// Pre-flight capacities (`docs/reference/type5.md` §2.1):
///
/// ```
/// icode-slix       102  (112 bytes, CC E1 40 0E 01: the smaller MLEN reading)
/// icode-slix2      308  (blocks 0–78, CC E1 40 28 01: area 312, T and a 3-byte L)
/// st25tv02k        242  (64 blocks, CC E1 40 1F 01: area 244, T and L)
/// type5            102  (any Type 5 tag; pre-flight assumes the smallest, ICODE SLIX)
/// ```
extension Type5Family {
    /// ISO/IEC 15693 vicinity requests.
    public var transport: Transport { .iso15693 }

    /// ICODE SLIX, ICODE SLIX2 and ST25TV02K.
    public var chips: [ChipDescriptor] {
        [
            Self.chip(
                .icodeSLIX, userMemory: 112, capacity: 102,
                note: "112 bytes, CC `E1 40 0E 01`; the smaller MLEN reading, so RFAL-based readers see it all",
                identification: "UID E0 04 01, byte 3 & 18h = 10h"),
            Self.chip(
                .icodeSLIX2, userMemory: 316, capacity: 308, note: "blocks 0–78, CC `E1 40 28 01`, 3-byte TLV length",
                identification: "UID E0 04 01, byte 3 & 18h = 08h"),
            Self.chip(
                .st25tv02k, userMemory: 256, capacity: 242, note: "64 blocks, CC `E1 40 1F 01`",
                identification: "UID E0 02, 64 or 80 blocks of 4 bytes, no other ST IC reference"),
        ]
    }

    /// `type5`: any Type 5 tag, sized for the ICODE SLIX; the simulator's generic VICC presents it.
    public var anyChip: ChipDescriptor? {
        ChipDescriptor(
            family: Self.name, manifestName: Self.name, displayName: "any Type 5 tag", accepts: [], userMemory: nil,
            capacity: .bytes(102),
            capacityNote: "sized for the ICODE SLIX. Each tag's real capacity is read from its CC and system "
                + "information.",
            uidForm: Self.uidForm, simulatorName: Self.name, jobSimulatorName: Type5ChipModel.icodeSLIX.rawValue,
            capabilities: Self.capabilities, identification: "an ISO 15693 Inventory answer")
    }

    /// Lock Block, and formatting a blank tag.
    static let capabilities = ChipCapabilities(locks: [.lockBlock], formatsBlankTags: true)

    /// The descriptor of one chip `Type5ChipModel` names.
    static func chip(
        _ model: Type5ChipModel, userMemory: Int, capacity: Int, note: String, identification: String
    ) -> ChipDescriptor {
        ChipDescriptor(
            family: name, manifestName: model.rawValue, displayName: model.displayName, accepts: [model.chip],
            userMemory: userMemory, capacity: .bytes(capacity), capacityNote: note, uidForm: uidForm,
            simulatorName: model.rawValue, capabilities: capabilities, identification: identification)
    }
}
