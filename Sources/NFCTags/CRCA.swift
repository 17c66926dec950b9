/// CRC_A of ISO/IEC 14443-3: 16 bits, preset `6363`, reflected polynomial `8408`, no final XOR,
/// appended low byte first (`docs/reference/type2.md` §1).
public enum CRCA {
    /// The CRC of `bytes` as the two bytes sent on the air (low byte first): `30 00` → `02 A8`.
    public static func checksum<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var crc: UInt16 = 0x6363
        for byte in bytes {
            var b = byte ^ UInt8(crc & 0x00FF)
            b ^= b << 4
            crc = (crc >> 8) ^ (UInt16(b) << 8) ^ (UInt16(b) << 3) ^ (UInt16(b) >> 4)
        }
        return [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }

    /// `bytes` followed by their CRC.
    public static func appending(to bytes: [UInt8]) -> [UInt8] { bytes + checksum(bytes) }

    /// Whether the last two bytes of `frame` are the CRC of the rest.
    public static func isValid(_ frame: [UInt8]) -> Bool {
        guard frame.count >= 3 else { return false }
        return checksum(frame.dropLast(2)) == Array(frame.suffix(2))
    }
}
