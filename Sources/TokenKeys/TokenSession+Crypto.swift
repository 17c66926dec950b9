internal import CPKCS11
import Crypto

/// AES and HMAC with a key that stays in the token; CMAC and CBC are built from single-block ECB calls where the
/// token lacks them (p11-kit's client offers AES-ECB but not AES-CMAC or AES-CBC; docs/reference/pkcs11.md §3).
extension TokenSession {
    /// How a CMAC is computed with a key.
    public enum CMACRoute: Sendable, Hashable {
        /// One `C_Sign(CKM_AES_CMAC)` in the token.
        case tokenCMAC
        /// Subkeys from one `CKM_AES_ECB` block E(K, 0), then CBC block by block, each block one `CKM_AES_ECB`
        /// call: the key still never leaves the token.
        case ecbChained
    }

    /// The route `aesCMAC` takes for `key`: the token's CMAC when `C_GetMechanismInfo` offers `CKM_AES_CMAC` for
    /// signing at the key's length and the key may sign; else the ECB-chained route.
    ///
    /// - Throws: `.mechanismNotOffered` (69), naming both mechanisms and the key, when neither route is open.
    public func cmacRoute(for key: TokenKey) throws(TokenError) -> CMACRoute {
        if key.canSign, offers(UInt(CKM_AES_CMAC), UInt(CKF_SIGN), for: key) { return .tokenCMAC }
        if key.canEncrypt, offers(UInt(CKM_AES_ECB), UInt(CKF_ENCRYPT), for: key) { return .ecbChained }
        throw TokenError(
            .mechanismNotOffered,
            "token \"\(token.label)\" offers neither CKM_AES_CMAC (sign) nor CKM_AES_ECB (encrypt) for \(key)")
    }

    /// AES-ECB encryption of whole 16-byte blocks in the token (`CKM_AES_ECB`).
    public func aesECBEncrypt(key: TokenKey, _ blocks: [UInt8]) throws(TokenError) -> [UInt8] {
        try requireBlocks(blocks.count, "AES-ECB input")
        return try run("C_Encrypt(CKM_AES_ECB) with \(key)") { () throws(PKCS11Status) in
            try functions.encrypt(
                session: session, mechanism: PKCS11Mechanism(UInt(CKM_AES_ECB)), key: key.handle, data: blocks)
        }
    }

    /// AES-CBC encryption of whole blocks: `CKM_AES_CBC` when offered for `key`, else ECB block by block.
    public func aesCBCEncrypt(key: TokenKey, iv: [UInt8], _ data: [UInt8]) throws(TokenError) -> [UInt8] {
        try requireBlocks(data.count, "AES-CBC input")
        try requireBlocks(iv.count == 16 ? 16 : 1, "AES-CBC IV")
        if offers(UInt(CKM_AES_CBC), UInt(CKF_ENCRYPT), for: key) {
            return try run("C_Encrypt(CKM_AES_CBC) with \(key)") { () throws(PKCS11Status) in
                try functions.encrypt(
                    session: session, mechanism: PKCS11Mechanism(UInt(CKM_AES_CBC), parameter: iv), key: key.handle,
                    data: data)
            }
        }
        var previous = iv
        var out: [UInt8] = []
        for start in stride(from: 0, to: data.count, by: 16) {
            let block = zip(data[start..<start + 16], previous).map { $0 ^ $1 }
            previous = try aesECBEncrypt(key: key, block)
            out += previous
        }
        return out
    }

    /// AES-CBC decryption of whole blocks (the SUN meta-read): `CKM_AES_CBC` when offered, else ECB decryption
    /// block by block (`CKM_AES_ECB`), each XORed with the previous ciphertext block.
    public func aesCBCDecrypt(key: TokenKey, iv: [UInt8], _ data: [UInt8]) throws(TokenError) -> [UInt8] {
        try requireBlocks(data.count, "AES-CBC input")
        try requireBlocks(iv.count == 16 ? 16 : 1, "AES-CBC IV")
        if offers(UInt(CKM_AES_CBC), UInt(CKF_DECRYPT), for: key) {
            return try run("C_Decrypt(CKM_AES_CBC) with \(key)") { () throws(PKCS11Status) in
                try functions.decrypt(
                    session: session, mechanism: PKCS11Mechanism(UInt(CKM_AES_CBC), parameter: iv), key: key.handle,
                    data: data)
            }
        }
        let plain = try run("C_Decrypt(CKM_AES_ECB) with \(key)") { () throws(PKCS11Status) in
            try functions.decrypt(
                session: session, mechanism: PKCS11Mechanism(UInt(CKM_AES_ECB)), key: key.handle, data: data)
        }
        let chain = iv + data.dropLast(16)
        return zip(plain, chain).map { $0 ^ $1 }
    }

    /// AES-CMAC (RFC 4493) of `data`, any length, with `key` inside the token, by `route` or the key's own route.
    public func aesCMAC(key: TokenKey, _ data: [UInt8], route: CMACRoute? = nil) throws(TokenError) -> [UInt8] {
        let chosen: CMACRoute
        if let route { chosen = route } else { chosen = try cmacRoute(for: key) }
        switch chosen {
        case .tokenCMAC:
            return try run("C_Sign(CKM_AES_CMAC) with \(key)") { () throws(PKCS11Status) in
                try functions.sign(
                    session: session, mechanism: PKCS11Mechanism(UInt(CKM_AES_CMAC)), key: key.handle, data: data)
            }
        case .ecbChained:
            let subkeys = try cmacSubkeys(key)
            let prepared = subkeys.prepared(data, blocks: CMACSubkeys.blocks(forCount: data.count))
            return try cbcMACByECB(key: key, prepared)
        }
    }

    /// The NXP AN10922 AES-128 diversified key for `input` (M, 1–31 bytes) under `key`, computed in the token.
    ///
    /// AN10922 §2.2 always MACs 32 bytes: D = `01 ‖ M`, padded `80 00…` with K2 on the last block (or K1 when D
    /// is 32 bytes). For 17 ≤ |D| ≤ 32 that is a plain CMAC of D, one `C_Sign(CKM_AES_CMAC)`; for |D| ≤ 16 a
    /// plain CMAC would pad to 16 bytes and give a different key, so the 32 bytes are prepared on the host with
    /// K2 from E_K(0) and encrypted with AES-CBC (IV 0) in the token; the key is the last block
    /// (docs/reference/pkcs11.md §3). Without the token's CMAC, both cases take the second path.
    public func an10922(key: TokenKey, input: [UInt8]) throws(TokenError) -> [UInt8] {
        guard (1...31).contains(input.count) else {
            throw TokenError(.invalidInput, "AN10922 diversification input must be 1–31 bytes, got \(input.count)")
        }
        let data = [0x01] + input
        if data.count > 16, try cmacRoute(for: key) == .tokenCMAC {
            return try aesCMAC(key: key, data, route: .tokenCMAC)
        }
        let prepared = try cmacSubkeys(key).prepared(data, blocks: 2)
        return Array(try aesCBCEncrypt(key: key, iv: [UInt8](repeating: 0, count: 16), prepared).suffix(16))
    }

    /// HMAC-SHA256 of `data` with `key` in the token (`CKM_SHA256_HMAC`): the full 32-byte MAC.
    public func hmacSHA256(key: TokenKey, _ data: [UInt8]) throws(TokenError) -> [UInt8] {
        try run("C_Sign(CKM_SHA256_HMAC) with \(key)") { () throws(PKCS11Status) in
            try functions.sign(
                session: session, mechanism: PKCS11Mechanism(UInt(CKM_SHA256_HMAC)), key: key.handle, data: data)
        }
    }

    /// The key's fingerprint computed in the token, equal to `KeyFingerprint` of the same key's bytes.
    public func fingerprint(of key: TokenKey) throws(TokenError) -> String {
        if key.keyType.isHMAC { return KeyFingerprint.format(try hmacSHA256(key: key, KeyFingerprint.text)) }
        return KeyFingerprint.format(try aesCMAC(key: key, KeyFingerprint.text))
    }

    /// K1 and K2 of `key` from one token ECB block E(K, 0), kept for this session.
    func cmacSubkeys(_ key: TokenKey) throws(TokenError) -> CMACSubkeys {
        if let known = subkeys[key.handle] { return known }
        guard key.canEncrypt, offers(UInt(CKM_AES_ECB), UInt(CKF_ENCRYPT), for: key) else {
            throw TokenError(
                .mechanismNotOffered,
                "token \"\(token.label)\" does not offer CKM_AES_ECB (encrypt) for \(key), needed for its CMAC "
                    + "subkeys (AN10922 of a short input, or CMAC without CKM_AES_CMAC)")
        }
        let made = CMACSubkeys(l: try aesECBEncrypt(key: key, [UInt8](repeating: 0, count: 16)))
        subkeys[key.handle] = made
        return made
    }

    /// The CBC-MAC (IV 0) of prepared whole blocks, one token ECB call per block: the last ciphertext block.
    private func cbcMACByECB(key: TokenKey, _ blocks: [UInt8]) throws(TokenError) -> [UInt8] {
        var state = [UInt8](repeating: 0, count: 16)
        for start in stride(from: 0, to: blocks.count, by: 16) {
            state = try aesECBEncrypt(key: key, zip(blocks[start..<start + 16], state).map { $0 ^ $1 })
        }
        return state
    }

    private func requireBlocks(_ count: Int, _ what: String) throws(TokenError) {
        guard count > 0, count % 16 == 0 else {
            throw TokenError(.invalidInput, "\(what) must be whole 16-byte blocks, got \(count) bytes")
        }
    }
}
