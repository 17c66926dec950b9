import NDEF

/// The chip facts of one Type 4 chip, and only those: its identity, the NDEF and CC file sizes it ships,
/// and whether its NDEF file honours the CC's write byte (`docs/reference/type4.md` §1.6, §1.8).
///
/// Everything else (CC, NLEN, access bytes) is read from the tag itself; a tag GetVersion does not name is
/// the generic `type4` chip, whose facts are all unknown.
public struct Type4ChipModel: Sendable, Hashable {
    /// How the chip's NDEF file becomes read-only (T4T has no generic lock command, §1.6).
    public enum LockMethod: Sendable, Hashable {
        /// Setting the CC's NDEF write byte to `FF` makes the file refuse UPDATE BINARY (`6982`): `writeLock`
        /// sets it and confirms it with a refused no-change UPDATE.
        case ccWriteByte
        /// The file's write right is a keyed access right that only the application's keys change (DESFire).
        case needsKeys
        /// NTAG 424 DNA in its delivery state: ChangeFileSettings `90 5F` under the delivery K0 sets the NDEF
        /// file's Write, ReadWrite and Change rights to never, and WriteData sets the CC's write byte.
        case deliveryKey
        /// Nothing known: the chip may or may not honour the CC byte.
        case unknown
    }

    /// The chip as the pipeline records it.
    public var chip: TagChip
    /// The NDEF file's size as the chip ships it (NLEN included), when fixed.
    public var ndefFileSize: Int?
    /// The CC file's size as the chip ships it, when fixed (one READ BINARY of this many bytes reads the CC).
    public var ccFileSize: Int?
    /// How its NDEF file becomes read-only.
    public var lockMethod: LockMethod
    /// Why `provision` refuses a lock on the chip (shown with `TagError.lockUnsupported`).
    ///
    /// No chip model knows a proprietary access procedure (CC access bytes `80`–`FE`) yet, so such a write
    /// access makes the NDEF file read-only to `provision`; a keyed NTAG 424 DNA procedure belongs here.
    public var lockRefusal: String

    /// Creates a chip model.
    public init(
        chip: TagChip, ndefFileSize: Int? = nil, ccFileSize: Int? = nil, lockMethod: LockMethod, lockRefusal: String
    ) {
        self.chip = chip
        self.ndefFileSize = ndefFileSize
        self.ccFileSize = ccFileSize
        self.lockMethod = lockMethod
        self.lockRefusal = lockRefusal
    }

    /// NXP NTAG 424 DNA: NDEF file E104 of 256 bytes, CC file E103 of 32 (§1.8); its NDEF file is made
    /// read-only by ChangeFileSettings with K0, and its CC file itself needs K0 to be written. Without job keys
    /// that is the delivery K0; a tag whose K0 was changed is locked by its keyed job (the `ntag424` section).
    public static let ntag424DNA = Type4ChipModel(
        chip: TagChip(family: Type4Family.name, id: "ntag424", displayName: "NTAG 424 DNA"), ndefFileSize: 256,
        ccFileSize: 32, lockMethod: .deliveryKey,
        lockRefusal: "NTAG 424 DNA: making the NDEF file read-only needs the file's Change key (K0)")

    /// A Type 4 tag GetVersion does not name: handled by the NFC Forum procedure alone.
    public static let generic = Type4ChipModel(
        chip: TagChip(family: Type4Family.name, id: "type4", displayName: "Type 4 tag"), lockMethod: .unknown,
        lockRefusal: "provision cannot tell whether this chip refuses writes once its CC says read-only; if "
            + "the job's tags do, set \"type4\": {\"honoursCCWriteByte\": true} in the manifest")

    /// An NXP MIFARE DESFire (HW type `01`): a generic T4T for NDEF, its NDEF file's rights are DESFire keys.
    public static func desfire(hardwareMajor major: UInt8) -> Type4ChipModel {
        Type4ChipModel(
            chip: TagChip(
                family: Type4Family.name, id: "desfire", displayName: "MIFARE DESFire (HW \(Hex.byte(major))h)"),
            lockMethod: .needsKeys,
            lockRefusal: "MIFARE DESFire: the NDEF file's write right is a DESFire access right; "
                + "changing it needs the application's keys")
    }

    /// Another NXP ISO-DEP chip (an NTAG other than the 424 DNA, or another HW type), named by its type.
    public static func otherNXP(_ hardware: Type4Version.Part) -> Type4ChipModel {
        let type = Hex.byte(hardware.type)
        let version = "HW \(Hex.byte(hardware.major)).\(Hex.byte(hardware.minor)), \(hardware.storageDescription)"
        let chip =
            hardware.type == 0x04
            ? TagChip(family: Type4Family.name, id: "ntag-t4t", displayName: "NXP NTAG, Type 4 (\(version))")
            : TagChip(
                family: Type4Family.name, id: "nxp-\(type.lowercased())", displayName: "NXP type \(type)h (\(version))")
        return Type4ChipModel(chip: chip, lockMethod: .unknown, lockRefusal: generic.lockRefusal)
    }

    /// The chip a GetVersion answer names, and why the tag is handled as the generic chip when it is.
    ///
    /// NTAG 424 DNA: vendor `04`, HW type `04`, HW major `30`, storage `11` (§2.3). Another NXP answer is
    /// named by its type; a refusal (`6E00`, `6D00`, `911C`, …), an unparsable answer or another vendor is
    /// the generic chip.
    public static func identify(_ answer: Type4VersionAnswer) -> (model: Type4ChipModel, genericReason: String?) {
        guard let version = answer.version else {
            let word = Hex.compact([UInt8(answer.status >> 8), UInt8(answer.status & 0xFF)])
            let reason =
                answer.status == 0x9100
                ? "GetVersion answer not understood (\(Hex.string(answer.bytes)))"
                : "GetVersion refused (\(word))"
            return (generic, reason)
        }
        let hardware = version.hardware
        guard hardware.vendor == 0x04 else {
            return (generic, "GetVersion names vendor \(Hex.byte(hardware.vendor))h, not NXP")
        }
        if hardware.type == 0x04, hardware.major == 0x30, hardware.storageSize == 0x11 { return (ntag424DNA, nil) }
        if hardware.type == 0x01 { return (desfire(hardwareMajor: hardware.major), nil) }
        return (otherNXP(hardware), nil)
    }
}
