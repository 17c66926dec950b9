import NDEF

/// What NXP's native GetVersion (`90 60`, then `90 AF` twice) tells about an ISO-DEP chip: hardware and
/// software versions and the production data of part 3 (`docs/reference/type4.md` §2.3).
///
/// ```
/// part 1 (HW)  vendor type subtype major minor storage protocol     04 04 02 30 00 11 05
/// part 2 (SW)  vendor type subtype major minor storage protocol     04 04 02 01 02 11 05
/// part 3       UID(7) batch(5; NTAG 424 DNA: low nibble of the 5th = FabKey) week year [FabKeyID]
/// ```
public struct Type4Version: Sendable, Hashable {
    /// One 7-byte version part (hardware or software).
    public struct Part: Sendable, Hashable {
        /// VendorID (`04` = NXP).
        public var vendor: UInt8
        /// Type (`01` MIFARE DESFire, `04` NTAG).
        public var type: UInt8
        /// Subtype (NTAG 424 DNA HW: low nibble `2` = 50 pF, high nibble `0` strong / `8` standard back modulation).
        public var subtype: UInt8
        /// Major version.
        public var major: UInt8
        /// Minor version.
        public var minor: UInt8
        /// StorageSize: bits 7–1 = n, size 2ⁿ bytes, or between 2ⁿ and 2ⁿ⁺¹ when bit 0 is set.
        public var storageSize: UInt8
        /// Protocol type (`05` = ISO/IEC 14443-2 and -3).
        public var protocolType: UInt8

        /// The part from its 7 bytes; `nil` for another length.
        public init?(_ bytes: [UInt8]) {
            guard bytes.count == 7 else { return nil }
            (vendor, type, subtype, major, minor) = (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4])
            (storageSize, protocolType) = (bytes[5], bytes[6])
        }

        /// The part as sent.
        public var bytes: [UInt8] { [vendor, type, subtype, major, minor, storageSize, protocolType] }

        /// The storage size in words (`256 < size < 512 bytes` for `11`, `256 bytes` for `10`).
        public var storageDescription: String {
            let exponent = Int(storageSize >> 1)
            guard exponent < 31 else { return "storage code \(Hex.byte(storageSize))" }
            let size = 1 << exponent
            return storageSize & 1 == 0 ? "\(size) bytes" : "\(size) < size < \(size * 2) bytes"
        }
    }

    /// Part 1: the hardware.
    public var hardware: Part
    /// Part 2: the software.
    public var software: Part
    /// The 7-byte UID (all zero when the chip runs with Random ID).
    public var uid: [UInt8]
    /// The production batch number (5 bytes as sent).
    public var batch: [UInt8]
    /// Calendar week of production (BCD-like, `21`).
    public var week: UInt8
    /// Year of production (BCD-like, `18` = 2018).
    public var year: UInt8
    /// FabKeyID, when part 3 carries one.
    public var fabKeyID: UInt8?

    /// Parses the data of the three parts; `nil` when any has the wrong length (an unparsable answer).
    public init?(parts: [[UInt8]]) {
        guard parts.count == 3, let hardware = Part(parts[0]), let software = Part(parts[1]) else { return nil }
        let production = parts[2]
        guard production.count == 14 || production.count == 15 else { return nil }
        self.hardware = hardware
        self.software = software
        uid = Array(production[0..<7])
        batch = Array(production[7..<12])
        week = production[12]
        year = production[13]
        fabKeyID = production.count == 15 ? production[14] : nil
    }

    /// Whether the UID is hidden (Random ID: GetVersion answers zeros).
    public var hidesUID: Bool { uid.allSatisfy { $0 == 0 } }
}

/// What a GetVersion attempt returned: the data of every part the tag sent and the last status word.
public struct Type4VersionAnswer: Sendable, Hashable {
    /// The data of each part answered with `91 AF` or `91 00`, in order.
    public var parts: [[UInt8]]
    /// The status word of the last answer (`9100` complete; `6E00`, `6D00`, `911C`: the tag has no GetVersion).
    public var status: UInt16
    /// Whether the tag still wanted a part after the third (`91 AF` to the last `90 AF`): the command was left
    /// open, which no NXP chip known to `provision` does.
    public var leftOpen: Bool { status == 0x91AF }

    /// Creates an answer.
    public init(parts: [[UInt8]], status: UInt16) {
        self.parts = parts
        self.status = status
    }

    /// The parsed version, when the tag completed GetVersion with three well-formed parts.
    public var version: Type4Version? { status == 0x9100 ? Type4Version(parts: parts) : nil }

    /// Every part's data as one byte string (what `provision inspect` shows as the GetVersion answer).
    public var bytes: [UInt8] { parts.flatMap { $0 } }
}
