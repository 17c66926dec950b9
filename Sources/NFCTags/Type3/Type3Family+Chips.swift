/// The Type 3 chips as manifests, help texts and the simulator name them.
///
/// Pre-flight capacities (`docs/reference/type3.md` §1.5):
///
/// ```
/// felica-lite-s    208  (FeliCa Lite-S: NmaxB 13 blocks of 16 bytes after the attribute block)
/// felica-standard  208  (a FeliCa Standard with the NDEF system; pre-flight assumes a Lite-S's NmaxB)
/// type3            208  (any Type 3 tag; the same assumption)
/// ```
extension Type3Family {
    /// FeliCa frames at 212/424 kbit/s.
    public var transport: Transport { .feliCa }

    /// NmaxB of a Lite-S: S_PAD1–13 after the attribute block, 16 bytes each.
    static let liteSCapacity = 13 * 16

    /// FeliCa Lite-S and FeliCa Standard with the NDEF system `12FC`.
    public var chips: [ChipDescriptor] {
        [
            ChipDescriptor(
                family: Self.name, manifestName: Self.liteS.id, displayName: Self.liteS.displayName,
                accepts: [Self.liteS], userMemory: FeliCaLiteS.userBlocks.count * 16,
                capacity: .bytes(Self.liteSCapacity), capacityNote: "NmaxB 13 blocks of 16 bytes",
                uidForm: Self.idmForm, simulatorName: Self.liteS.id,
                capabilities: ChipCapabilities(locks: [.memoryConfiguration], formatsBlankTags: true),
                identification: "PMm IC type F1h"),
            ChipDescriptor(
                family: Self.name, manifestName: Self.standard.id, displayName: Self.standard.displayName,
                accepts: [Self.standard], userMemory: nil, capacity: .bytes(Self.liteSCapacity),
                capacityNote: "with the NDEF system `12FC`; sized like a Lite-S, each tag's NmaxB is read from its "
                    + "attribute block",
                uidForm: Self.idmForm, simulatorName: Self.standard.id,
                capabilities: ChipCapabilities(formatsBlankTags: true), identification: "any other PMm IC type"),
        ]
    }

    /// `type3`: any Type 3 tag, sized like a Lite-S; the simulator presents a Lite-S for it.
    public var anyChip: ChipDescriptor? {
        ChipDescriptor(
            family: Self.name, manifestName: Self.name, displayName: "any Type 3 tag", accepts: [], userMemory: nil,
            capacity: .bytes(Self.liteSCapacity), capacityNote: "sized like a Lite-S", uidForm: Self.idmForm,
            simulatorName: Self.name, jobSimulatorName: Self.liteS.id,
            capabilities: ChipCapabilities(locks: [.memoryConfiguration], formatsBlankTags: true),
            identification: "a FeliCa Polling answer for system 12FC")
    }
}
