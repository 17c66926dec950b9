import Crypto

/// The data field of ChangeKey (`90 C4`, always CommMode.Full; `docs/reference/type4.md` §2.8): pure.
///
/// For keys 1–4 the key data is `(NewKey ⊕ OldKey) ‖ KeyVer ‖ CRC32NK(NewKey)`; for key 0 (the key of the
/// session, which the change ends) `NewKey ‖ KeyVer`. Both are padded (ISO 9797-1 M2), encrypted under the
/// command IV, and followed by the command MAC over `C4 ‖ CmdCtr ‖ TI ‖ KeyNo ‖ cryptogram`.
public enum NTAG424ChangeKey {
    /// `KeyNo ‖ E(KeyData ‖ padding) ‖ MACt` for a change of `keyNumber` (0–4) to `newKey` with `version`.
    ///
    /// - Parameter oldKey: the key being replaced (keys 1–4; ignored for key 0).
    public static func commandData(
        session: NTAG424SecureMessaging, keyNumber: UInt8, newKey: [UInt8], oldKey: [UInt8], version: UInt8
    ) throws(AES128Error) -> [UInt8] {
        let keyData = try keyData(keyNumber: keyNumber, newKey: newKey, oldKey: oldKey, version: version)
        let cryptogram = try session.encryptCommandData(keyData)
        let mac = try session.commandMAC(command: 0xC4, header: [keyNumber], data: cryptogram)
        return [keyNumber] + cryptogram + mac
    }

    /// The key data before padding and encryption: `NewKey ‖ KeyVer` for key 0, else
    /// `(NewKey ⊕ OldKey) ‖ KeyVer ‖ CRC32NK(NewKey)`.
    public static func keyData(
        keyNumber: UInt8, newKey: [UInt8], oldKey: [UInt8], version: UInt8
    ) throws(AES128Error) -> [UInt8] {
        guard newKey.count == 16 else { throw .keyLength(newKey.count) }
        guard keyNumber != 0 else { return newKey + [version] }
        guard oldKey.count == 16 else { throw .keyLength(oldKey.count) }
        return zip(newKey, oldKey).map { $0 ^ $1 } + [version] + jamCRC32(newKey)
    }

    /// CRC32NK: the IEEE 802.3 CRC-32 (reflected polynomial `EDB88320`, initial `FFFFFFFF`) without the final
    /// inversion ("JAMCRC"), least significant byte first. A checksum the chip defines, not a cipher.
    public static func jamCRC32(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * UInt32($0))) }
    }
}
