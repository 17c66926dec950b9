/// The CMAC subkeys K1 and K2 of a key, made on the host from L = E_K(0¹⁶) as RFC 4493 §2.3 defines them.
///
/// The token computes L (one `CKM_AES_ECB` block); the doubling and the last-block preparation are host
/// arithmetic, not AES, so nothing here is hand-rolled cryptography. L, K1 and K2 are derived from the master,
/// not the master (AES is a permutation), and are kept only in the session that made them (docs/reference/
/// pkcs11.md §3).
struct CMACSubkeys: Sendable {
    /// K1 = dbl(L).
    let k1: [UInt8]
    /// K2 = dbl(K1).
    let k2: [UInt8]

    /// The subkeys from `l` = E_K(0¹⁶).
    init(l: [UInt8]) {
        k1 = Self.double(l)
        k2 = Self.double(k1)
    }

    /// RFC 4493 §2.3 doubling in GF(2¹²⁸): shift left one bit; if the top bit was set, XOR `87` into the last byte.
    static func double(_ block: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 16)
        for index in 0..<16 {
            let next = index < 15 ? block[index + 1] >> 7 : 0
            out[index] = block[index] << 1 | next
        }
        if block[0] & 0x80 != 0 { out[15] ^= 0x87 }
        return out
    }

    /// `message` as CMAC processes it (RFC 4493 §2.4 steps 2–4), padded to `blocks` whole blocks: a message
    /// filling them exactly gets K1 on its last block; a shorter one is padded `80 00…` and gets K2.
    ///
    /// With `blocks` = ⌈|M|/16⌉ (at least 1) this is CMAC's own input; AN10922 always uses 2 blocks (32 bytes),
    /// which is where it differs from a plain CMAC for inputs of 16 bytes or less (NXP AN10922 §2.2).
    func prepared(_ message: [UInt8], blocks: Int) -> [UInt8] {
        let length = blocks * 16
        precondition(message.count <= length, "message longer than the prepared blocks")
        var data = message
        let complete = message.count == length && !message.isEmpty
        if !complete { data += [0x80] + [UInt8](repeating: 0, count: length - message.count - 1) }
        let subkey = complete ? k1 : k2
        for index in 0..<16 { data[length - 16 + index] ^= subkey[index] }
        return data
    }

    /// The number of CMAC blocks for a message of `count` bytes: ⌈count/16⌉, at least 1 (RFC 4493 §2.4 step 2).
    static func blocks(forCount count: Int) -> Int { max(1, (count + 15) / 16) }
}
