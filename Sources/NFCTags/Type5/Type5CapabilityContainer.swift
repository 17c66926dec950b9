/// The NFC Forum Type 5 Tag capability container in block 0 (or blocks 0–1) (`docs/reference/type5.md` §2.1).
///
/// ```
/// byte 0  magic   E1: 1-byte block numbers (20–24), E2: 2-byte (30–34)
/// byte 1  version (b7–6 major ≤ 1, b5–4 minor) | read access (b3–2, 00 free) | write access (b1–0, 00 free, 11 never)
/// byte 2  MLEN    T5T area in 8-byte units; 00: an 8-byte CC whose bytes 6–7 hold MLEN (big-endian)
/// byte 3  features 01 MBREAD, 02 IPREAD, 04 MLEN overflow, 08 Lock Block, 10 special frame
/// E1 40 0E 01   ICODE SLIX factory CC (MLEN counting the CC, NXP style)
/// E2 40 00 01 00 00 03 FF   ST25DV64K, 8-byte CC (MLEN 1023, NFC Forum style)
/// ```
public struct Type5CapabilityContainer: Sendable, Hashable {
    /// Magic `E1` or `E2`.
    public var magic: UInt8
    /// Byte 1: version and access bits.
    public var versionAccess: UInt8
    /// MLEN: the T5T area in 8-byte units (from byte 2, or bytes 6–7 of an 8-byte CC).
    public var mlen: Int
    /// Byte 3: feature bits.
    public var features: UInt8
    /// Whether the CC is the 8-byte form (byte 2 is `00`).
    public var isLong: Bool

    /// `01`: Read Multiple Blocks supported.
    public static let multipleBlockRead: UInt8 = 0x01
    /// `08`: Lock Block supported.
    public static let lockBlockSupported: UInt8 = 0x08
    /// `10`: set the option flag on write-alikes.
    public static let specialFrame: UInt8 = 0x10

    /// Creates a CC.
    public init(
        magic: UInt8 = 0xE1, versionAccess: UInt8 = 0x40, mlen: Int, features: UInt8 = 0x01, isLong: Bool = false
    ) {
        self.magic = magic
        self.versionAccess = versionAccess
        self.mlen = mlen
        self.features = features
        self.isLong = isLong
    }

    /// Parses the CC at the start of `bytes` (4 bytes, or 8 when byte 2 is `00`).
    ///
    /// - Returns: `nil` when the magic is not `E1`/`E2` or an 8-byte CC is cut short.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 4, bytes[0] == 0xE1 || bytes[0] == 0xE2 else { return nil }
        magic = bytes[0]
        versionAccess = bytes[1]
        features = bytes[3]
        if bytes[2] == 0 {
            guard bytes.count >= 8 else { return nil }
            isLong = true
            mlen = Int(bytes[6]) << 8 | Int(bytes[7])
        } else {
            isLong = false
            mlen = Int(bytes[2])
        }
    }

    /// The CC bytes (4, or 8 for the long form).
    public var bytes: [UInt8] {
        isLong
            ? [magic, versionAccess, 0x00, features, 0x00, 0x00, UInt8(mlen >> 8), UInt8(mlen & 0xFF)]
            : [magic, versionAccess, UInt8(mlen), features]
    }

    /// The CC's length: 4 or 8 bytes; the first TLV starts here.
    public var length: Int { isLong ? 8 : 4 }
    /// Major version (must be ≤ 1).
    public var majorVersion: Int { Int(versionAccess >> 6) }
    /// Read access bits (`00`: free).
    public var readAccess: UInt8 { (versionAccess >> 2) & 0x03 }
    /// Write access bits (`00`: free, `11`: never).
    public var writeAccess: UInt8 { versionAccess & 0x03 }
    /// Whether Read Multiple Blocks may be used.
    public var supportsMultipleBlockRead: Bool { features & Self.multipleBlockRead != 0 }
    /// Whether write-alikes carry the option flag.
    public var needsSpecialFrame: Bool { features & Self.specialFrame != 0 }
    /// The same CC with write access `11` (byte 1 `40` → `43`), as a lock writes it (§2.6).
    public var readOnly: Type5CapabilityContainer {
        var copy = self
        copy.versionAccess |= 0x03
        return copy
    }

    /// The T5T area after the CC in bytes, the smaller of the MLEN readings (§2.1 "MLEN ambiguity"):
    /// the NXP/Android one (MLEN×8 counts the CC), RFAL's (MLEN−1 when MLEN×8 is the whole memory) and the
    /// NFC Forum one (MLEN×8 after the CC), bounded by the memory after the CC when `memoryBytes` is known.
    ///
    /// ICODE SLIX `E1 40 0E 01` (112 bytes): min(108, 104, 108) = 104, so 102 message bytes (§2.1).
    public func areaBytes(memoryBytes: Int?) -> Int {
        let declared = mlen * 8
        var area = declared - length
        if let memoryBytes {
            area = min(area, memoryBytes - length)
            if declared == memoryBytes { area = min(area, declared - 8) }
        }
        return max(area, 0)
    }

    /// The largest NDEF message an area of `area` bytes holds: T, a 1- or 3-byte L and the message (the
    /// terminator is left out when the message fills the area).
    public static func messageCapacity(area: Int) -> Int {
        if area - 2 <= 0xFE { return max(area - 2, 0) }
        return max(min(area - 4, 0xFFFE), 0xFE)
    }
}
