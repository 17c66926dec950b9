import Crypto

/// The Type 4 chips as manifests, help texts and the simulator name them.
///
/// Pre-flight capacity is the job's NDEF file less its 2-byte NLEN (`docs/reference/type4.md` §1.8):
///
/// ```
/// ntag424          254  (NTAG 424 DNA: NDEF file E104 of 256 bytes minus the 2-byte NLEN)
/// type4            254  (any Type 4 tag; `type4.minimumFileSize` − 2, default 256 − 2)
/// ```
extension Type4Family {
    /// The NDEF file a Type 4 job assumes when the manifest does not say (`type4.minimumFileSize`): the
    /// NTAG 424 DNA's file E104.
    public static let defaultNDEFFileSize = 256

    /// ISO/IEC 14443-4 blocks carrying APDUs.
    public var transport: Transport { .isoDEP }

    /// The NTAG 424 DNA (its plain face until keyed personalisation).
    public var chips: [ChipDescriptor] {
        [
            ChipDescriptor(
                family: Self.name, manifestName: Self.ntag424.id, displayName: Self.ntag424.displayName,
                accepts: [Self.ntag424], userMemory: Type4ChipModel.ntag424DNA.ndefFileSize,
                capacity: .ndefFile(lengthField: 2),
                capacityNote: "its NDEF file E104 is 256 bytes, minus the 2-byte NLEN", uidForm: .sevenByteUID,
                simulatorName: Self.ntag424.id,
                capabilities: ChipCapabilities(
                    locks: [.fileSettings], mirrors: [.sun], originalitySignature: .secp224r1),
                identification: "GetVersion vendor 04h, HW type 04h, major 30h, storage 11h")
        ]
    }

    /// `type4`: any Type 4 tag, sized by the job's `type4.minimumFileSize`.
    public var anyChip: ChipDescriptor? {
        ChipDescriptor(
            family: Self.name, manifestName: Self.name, displayName: "any Type 4 tag", accepts: [], userMemory: nil,
            capacity: .ndefFile(lengthField: 2),
            capacityNote: "each tag's real capacity is read from its CC",
            uidForm: .sevenByteUID, simulatorName: Self.name,
            capabilities: ChipCapabilities(locks: [.ccWriteByte]), identification: "SAK bit 6 (20h) set")
    }
}
