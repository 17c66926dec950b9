internal import CCrypto

/// A wrong key or data length given to `AES128` (a programming error of the caller, reported as a value).
public enum AES128Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// The key is not 16 bytes.
    case keyLength(Int)
    /// ECB/CBC data is not a whole number of 16-byte blocks, or the IV is not 16 bytes.
    case blockLength(Int)
    /// libcrypto refused an operation; the text names the C function.
    case library(String)

    public var description: String {
        switch self {
        case .keyLength(let count): "AES-128 key must be 16 bytes, got \(count)"
        case .blockLength(let count): "AES data must be whole 16-byte blocks (and the IV 16 bytes), got \(count)"
        case .library(let function): "libcrypto call \(function) failed"
        }
    }
}

/// AES-128 in ECB and CBC mode without padding, and AES-CMAC (NIST SP 800-38B), all through libcrypto.
///
/// These are the primitives of NTAG 424 DNA secure messaging, SUN and AN10922 key diversification
/// (`docs/reference/type4.md` §2.4–§4.2). Padding (ISO 9797-1 method 2) is the caller's, as the chip defines it.
public enum AES128 {
    /// AES-128-ECB encryption of whole blocks (`EVP_aes_128_ecb`, padding off).
    public static func encryptECB(key: [UInt8], _ data: [UInt8]) throws(AES128Error) -> [UInt8] {
        try crypt(encrypt: true, cipher: try Algorithms.fetched().ecb, key: key, iv: nil, data)
    }

    /// AES-128-ECB decryption of whole blocks (`EVP_aes_128_ecb`, padding off).
    public static func decryptECB(key: [UInt8], _ data: [UInt8]) throws(AES128Error) -> [UInt8] {
        try crypt(encrypt: false, cipher: try Algorithms.fetched().ecb, key: key, iv: nil, data)
    }

    /// AES-128-CBC encryption of whole blocks (`EVP_aes_128_cbc`, padding off); IV 16 zero bytes by default.
    public static func encryptCBC(
        key: [UInt8], iv: [UInt8] = zeroBlock, _ data: [UInt8]
    ) throws(AES128Error) -> [UInt8] {
        try crypt(encrypt: true, cipher: try Algorithms.fetched().cbc, key: key, iv: iv, data)
    }

    /// AES-128-CBC decryption of whole blocks (`EVP_aes_128_cbc`, padding off); IV 16 zero bytes by default.
    public static func decryptCBC(
        key: [UInt8], iv: [UInt8] = zeroBlock, _ data: [UInt8]
    ) throws(AES128Error) -> [UInt8] {
        try crypt(encrypt: false, cipher: try Algorithms.fetched().cbc, key: key, iv: iv, data)
    }

    /// AES-CMAC of `message` (any length, empty included): the 16-byte tag, through `EVP_MAC` "CMAC" (a copy of
    /// `Algorithms.cmac`, whose cipher is set once, keyed with `EVP_MAC_init`).
    public static func cmac(key: [UInt8], _ message: [UInt8]) throws(AES128Error) -> [UInt8] {
        guard key.count == 16 else { throw .keyLength(key.count) }
        guard let context = EVP_MAC_CTX_dup(try Algorithms.fetched().cmac) else { throw .library("EVP_MAC_CTX_dup") }
        defer { EVP_MAC_CTX_free(context) }
        var out = [UInt8](repeating: 0, count: 16)
        var length = 0
        let ok = key.withUnsafeBufferPointer { keyBytes in
            guard EVP_MAC_init(context, keyBytes.baseAddress, 16, nil) == 1 else { return false }
            let updated = message.withUnsafeBufferPointer { EVP_MAC_update(context, $0.baseAddress, $0.count) }
            guard updated == 1 else { return false }
            return out.withUnsafeMutableBufferPointer { EVP_MAC_final(context, $0.baseAddress, &length, 16) == 1 }
        }
        guard ok, length == 16 else { throw .library("EVP_MAC_init/update/final (CMAC)") }
        return out
    }

    /// CMAC's second subkey K2 (SP 800-38B §6.1), recovered from libcrypto's CMAC of the empty message,
    /// which is `E_K(80 00…00 ⊕ K2)`: AN10922 pads its input itself and needs the subkey.
    public static func cmacSubkey2(key: [UInt8]) throws(AES128Error) -> [UInt8] {
        let block = try decryptECB(key: key, try cmac(key: key, []))
        return [block[0] ^ 0x80] + block[1...]
    }

    /// 16 zero bytes: the IV of NTAG 424 DNA authentication and of PICCData.
    public static let zeroBlock = [UInt8](repeating: 0, count: 16)

    private static func crypt(
        encrypt: Bool, cipher: OpaquePointer, key: [UInt8], iv: [UInt8]?, _ data: [UInt8]
    ) throws(AES128Error) -> [UInt8] {
        guard key.count == 16 else { throw .keyLength(key.count) }
        guard data.count % 16 == 0, iv.map({ $0.count == 16 }) ?? true else { throw .blockLength(data.count) }
        guard !data.isEmpty else { return [] }
        guard let context = EVP_CIPHER_CTX_new() else { throw .library("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }
        var out = [UInt8](repeating: 0, count: data.count + 16)
        var written: Int32 = 0
        var final: Int32 = 0
        let ok = key.withUnsafeBufferPointer { keyBytes in
            (iv ?? []).withUnsafeBufferPointer { ivBytes in
                data.withUnsafeBufferPointer { input in
                    out.withUnsafeMutableBufferPointer { output in
                        guard
                            EVP_CipherInit_ex(
                                context, cipher, nil, keyBytes.baseAddress, iv == nil ? nil : ivBytes.baseAddress,
                                encrypt ? 1 : 0) == 1,
                            EVP_CIPHER_CTX_set_padding(context, 0) == 1,
                            EVP_CipherUpdate(
                                context, output.baseAddress, &written, input.baseAddress, Int32(input.count))
                                == 1
                        else { return false }
                        return EVP_CipherFinal_ex(context, output.baseAddress! + Int(written), &final) == 1
                    }
                }
            }
        }
        guard ok, Int(written + final) == data.count else { throw .library("EVP_CipherInit_ex/Update/Final_ex") }
        return Array(out.prefix(data.count))
    }
}

/// The algorithms `AES128` uses, fetched from libcrypto's default provider once for the process: an implicit fetch
/// (`EVP_aes_128_ecb()`, a cipher named in CMAC's parameters) looks the algorithm up again on every call.
///
/// Fetched algorithms are immutable and shared across threads (OpenSSL 3 "Algorithm fetching"); `cmac` is a
/// context with its cipher set (keyed with zeros), only ever copied (`EVP_MAC_CTX_dup`), never used itself. They
/// live as long as the process.
private final class Algorithms: @unchecked Sendable {
    private static let shared = Algorithms()

    /// The algorithms, or the error of a libcrypto without them.
    static func fetched() throws(AES128Error) -> Algorithms {
        guard let shared else { throw .library("EVP_CIPHER_fetch/EVP_MAC_fetch (AES-128, CMAC)") }
        return shared
    }

    let ecb: OpaquePointer
    let cbc: OpaquePointer
    let cmac: OpaquePointer

    private init?() {
        guard let ecb = EVP_CIPHER_fetch(nil, "AES-128-ECB", nil), let cbc = EVP_CIPHER_fetch(nil, "AES-128-CBC", nil),
            let mac = EVP_MAC_fetch(nil, "CMAC", nil)
        else { return nil }
        defer { EVP_MAC_free(mac) }  // the context holds its own reference
        guard let cmac = EVP_MAC_CTX_new(mac) else { return nil }
        let set = "AES-128-CBC".withCString { name in
            var parameters = [
                OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, UnsafeMutablePointer(mutating: name), 0),
                OSSL_PARAM_construct_end(),
            ]
            // Keyed (with zeros) because libcrypto copies only a keyed CMAC context; every copy is keyed again.
            return AES128.zeroBlock.withUnsafeBufferPointer { EVP_MAC_init(cmac, $0.baseAddress, 16, &parameters) }
        }
        guard set == 1 else { return nil }
        (self.ecb, self.cbc, self.cmac) = (ecb, cbc, cmac)
    }
}
