/// NXP AN10922 AES-128 key diversification: a per-tag key from a master key and a diversification input.
///
/// `DivKey = CMAC_K(01 ‖ M)` over a **fixed 32-byte** input (`docs/reference/type4.md` §4.2): D = `01 ‖ M`; when D
/// is shorter than 32 bytes, `80 00…` pads it to 32 and its last block is XORed with CMAC subkey K2; a D of
/// exactly 32 bytes gets K1 on its last block (the plain CMAC of D). The result is the last block of
/// AES-CBC (IV 0) over those 32 bytes. For D of 17–31 bytes this equals `CMAC_K(D)`; for a shorter D it does
/// not, so the padding is done here, not left to CMAC. Every AES operation is libcrypto's (`AES128`).
public enum KeyDiversification {
    /// The AN10922 key for `input` (M, 1–31 bytes) under `masterKey`.
    ///
    /// - Throws: `AES128Error.keyLength` for a master key that is not 16 bytes, `.blockLength` for an input
    ///   outside 1…31 bytes.
    public static func an10922(masterKey: [UInt8], input: [UInt8]) throws(AES128Error) -> [UInt8] {
        guard (1...31).contains(input.count) else { throw .blockLength(input.count) }
        let data = [0x01] + input
        if data.count == 32 { return try AES128.cmac(key: masterKey, data) }
        var padded = data + [0x80] + [UInt8](repeating: 0, count: 31 - data.count)
        let subkey = try AES128.cmacSubkey2(key: masterKey)
        for index in 0..<16 { padded[16 + index] ^= subkey[index] }
        return Array(try AES128.encryptCBC(key: masterKey, padded).suffix(16))
    }
}
