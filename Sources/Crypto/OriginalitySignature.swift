internal import CCrypto

/// A failure to use an originality-signature key.
public enum OriginalitySignatureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The private key is not 1…16 bytes, or is zero or not below the curve order n.
    case invalidPrivateKey
    /// The UID is empty or longer than 16 bytes.
    case invalidUID
    /// libcrypto refused an operation; the text names the C function.
    case library(String)

    public var description: String {
        switch self {
        case .invalidPrivateKey: "private key must be non-zero, at most the curve's scalar size and below its order"
        case .invalidUID: "UID must be 1 to 16 bytes"
        case .library(let function): "libcrypto call \(function) failed"
        }
    }
}

/// The curve of an originality signature: secp128r1 (NTAG21x, Ultralight EV1) or secp224r1 (NTAG 424 DNA).
public enum OriginalityCurve: Sendable, Hashable {
    /// SEC 2 secp128r1: 16-byte scalars, 33-byte uncompressed points.
    case secp128r1
    /// SEC 2 secp224r1 (NIST P-224): 28-byte scalars, 57-byte uncompressed points.
    case secp224r1

    /// The curve of an uncompressed public key `04 ‖ X ‖ Y` by its length: 33 bytes secp128r1, 57 bytes secp224r1.
    ///
    /// `nil` for any other length (compressed points, raw coordinates), which no trusted key may have.
    public init?(publicKeyBytes count: Int) {
        switch count {
        case OriginalityCurve.secp128r1.publicKeyBytes: self = .secp128r1
        case OriginalityCurve.secp224r1.publicKeyBytes: self = .secp224r1
        default: return nil
        }
    }

    /// Bytes of a scalar (r, s, a private key).
    public var scalarBytes: Int { self == .secp128r1 ? 16 : 28 }
    /// Bytes of an uncompressed public key `04 ‖ X ‖ Y`.
    public var publicKeyBytes: Int { 1 + 2 * scalarBytes }
    /// Bytes of a signature `r ‖ s` (READ_SIG: 32, Read_Sig: 56).
    public var signatureBytes: Int { 2 * scalarBytes }

    var nid: Int32 { self == .secp128r1 ? NID_secp128r1 : NID_secp224r1 }

    /// The group order n (SEC 2), for private-key range checks.
    var order: [UInt8] {
        switch self {
        case .secp128r1:
            [0xFF, 0xFF, 0xFF, 0xFE, 0x00, 0x00, 0x00, 0x00, 0x75, 0xA3, 0x0D, 0x1B, 0x90, 0x38, 0xA1, 0x15]
        case .secp224r1:
            [UInt8](repeating: 0xFF, count: 14) + [
                0x16, 0xA2, 0xE0, 0xB8, 0xF0, 0x3E, 0x13, 0xDD, 0x29, 0x45, 0x5C, 0x5C, 0x2A, 0x3D,
            ]
        }
    }
}

/// NXP originality signature: ECDSA over secp128r1 (NTAG21x, `docs/reference/type2.md` §3.8) or secp224r1 (NTAG 424
/// DNA, `docs/reference/type4.md` §2.9) on the raw UID.
///
/// The signed "digest" is the 7-byte UID itself, taken as a big-endian integer, with no hash. The
/// signature is `r ‖ s`, big-endian, as READ_SIG `3C 00` (16 bytes each) or Read_Sig `90 3C` (28 bytes each)
/// returns it. Public keys are uncompressed points `04 ‖ X ‖ Y` (33 or 57 bytes), and a key's length names its
/// curve. Everything goes through libcrypto: the curve by `NID_secp128r1` / `NID_secp224r1`, `ECDSA_do_sign`
/// and `ECDSA_do_verify`.
public enum OriginalitySignature {
    /// NXP's NTAG21x originality public key (AN11350).
    public static let ntag21xPublicKey: [UInt8] = [
        0x04, 0x49, 0x4E, 0x1A, 0x38, 0x6D, 0x3D, 0x3C, 0xFE, 0x3D, 0xC1, 0x0E, 0x5D, 0xE6, 0x8A, 0x49, 0x9B,
        0x1C, 0x20, 0x2D, 0xB5, 0xB1, 0x32, 0x39, 0x3E, 0x89, 0xED, 0x19, 0xFE, 0x5B, 0xE8, 0xBC, 0x61,
    ]

    /// NXP's MIFARE Ultralight EV1 originality public key (AN11341).
    public static let ultralightEV1PublicKey: [UInt8] = [
        0x04, 0x90, 0x93, 0x3B, 0xDC, 0xD6, 0xE9, 0x9B, 0x4E, 0x25, 0x5E, 0x3D, 0xA5, 0x53, 0x89, 0xA8, 0x27,
        0x56, 0x4E, 0x11, 0x71, 0x8E, 0x01, 0x72, 0x92, 0xFA, 0xF2, 0x32, 0x26, 0xA9, 0x66, 0x14, 0xB8,
    ]

    /// NXP's NTAG 424 DNA originality public key, secp224r1 (`docs/reference/type4.md` §2.9).
    public static let ntag424PublicKey: [UInt8] = [
        0x04, 0x8A, 0x9B, 0x38, 0x0A, 0xF2, 0xEE, 0x1B, 0x98, 0xDC, 0x41, 0x7F, 0xEC, 0xC2, 0x63, 0xF8, 0x44,
        0x9C, 0x76, 0x25, 0xCE, 0xCE, 0x82, 0xD9, 0xB9, 0x16, 0xC9, 0x92, 0xDA, 0x20, 0x9D, 0x68, 0x42, 0x2B,
        0x81, 0xEC, 0x20, 0xB6, 0x5A, 0x66, 0xB5, 0x10, 0x2A, 0x61, 0x59, 0x6A, 0xF3, 0x37, 0x92, 0x00, 0x59,
        0x93, 0x16, 0xA0, 0x0A, 0x14, 0x10,
    ]

    /// The repository's own test signing key (`TagEmulator.TestSigningKey`): its private half is in the
    /// sources, so it proves nothing about a tag; `run` refuses to trust it on a real reader.
    public static let repositoryTestPublicKey: [UInt8] = [
        0x04, 0x85, 0xE8, 0x11, 0xA7, 0x6D, 0xEE, 0xCC, 0xB0, 0x4A, 0x85, 0x8C, 0x9B, 0x93, 0x63, 0x34, 0x20,
        0x3F, 0x7B, 0x88, 0x0D, 0xEA, 0xCD, 0x9C, 0x71, 0x63, 0x3B, 0x87, 0xFC, 0xAE, 0x3C, 0xAA, 0xD7,
    ]

    /// The repository's own secp224r1 test key for emulated NTAG 424 DNA tags (`TagEmulator.NTAG424TestSigningKey`):
    /// public material like `repositoryTestPublicKey`, refused on a real reader in the same way.
    public static let repositoryNTAG424TestPublicKey: [UInt8] = [
        0x04, 0x0A, 0xA0, 0x54, 0x85, 0xE5, 0x8B, 0x49, 0x8C, 0x51, 0x8A, 0xEF, 0x85, 0x03, 0x75, 0x0C, 0x6E,
        0x03, 0xD9, 0x5F, 0xF7, 0x97, 0x50, 0xD3, 0x8E, 0xDB, 0xB6, 0x60, 0xAE, 0xB5, 0xBC, 0x77, 0xA5, 0xF5,
        0x26, 0x1D, 0x86, 0x12, 0x5D, 0x6D, 0xA7, 0x7A, 0xB4, 0x9A, 0xB6, 0xFE, 0xC9, 0xD0, 0x0F, 0x11, 0xB6,
        0xD5, 0x50, 0x2A, 0x50, 0x8B, 0x6B,
    ]

    /// Both repository test keys (secp128r1, secp224r1): their private halves are in the sources.
    public static let repositoryTestPublicKeys = [repositoryTestPublicKey, repositoryNTAG424TestPublicKey]

    /// Signs `uid` with `privateKey` (big-endian scalar, up to the curve's scalar size); returns `r ‖ s`.
    ///
    /// ECDSA uses a fresh random nonce, so two signatures of one UID differ; both verify.
    /// The corresponding C functions are `EC_KEY_set_private_key` and `ECDSA_do_sign`.
    public static func sign(
        uid: [UInt8], privateKey: [UInt8], curve: OriginalityCurve = .secp128r1
    ) throws(OriginalitySignatureError) -> [UInt8] {
        guard !uid.isEmpty, uid.count <= 16 else { throw .invalidUID }
        let key = try makeKey(privateKey: privateKey, curve: curve)
        defer { EC_KEY_free(key) }
        guard let sig = uid.withUnsafeBufferPointer({ ECDSA_do_sign($0.baseAddress, Int32($0.count), key) }) else {
            throw .library("ECDSA_do_sign")
        }
        defer { ECDSA_SIG_free(sig) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(sig, &r, &s)
        guard let r, let s else { throw .library("ECDSA_SIG_get0") }
        return try bigEndian(r, width: curve.scalarBytes) + bigEndian(s, width: curve.scalarBytes)
    }

    /// Whether `signature` (`r ‖ s`) is valid for `uid` under `publicKey` (`04 ‖ X ‖ Y`) on `curve`, by default
    /// the curve the key's length names (`OriginalityCurve(publicKeyBytes:)`).
    ///
    /// Any malformed input (wrong lengths, a signature of the other curve, a point not on the curve) gives `false`.
    /// The corresponding C function is `ECDSA_do_verify`.
    public static func verify(
        uid: [UInt8], signature: [UInt8], publicKey: [UInt8], curve: OriginalityCurve? = nil
    ) -> Bool {
        guard let curve = curve ?? OriginalityCurve(publicKeyBytes: publicKey.count) else { return false }
        let width = curve.scalarBytes
        guard !uid.isEmpty, uid.count <= 16, signature.count == 2 * width,
            let key = try? makeKey(publicKey: publicKey, curve: curve)
        else { return false }
        defer { EC_KEY_free(key) }
        guard let sig = ECDSA_SIG_new() else { return false }
        defer { ECDSA_SIG_free(sig) }
        guard let r = bignum(signature[0..<width]), let s = bignum(signature[width...]) else { return false }
        guard ECDSA_SIG_set0(sig, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return false
        }
        let result = uid.withUnsafeBufferPointer { ECDSA_do_verify($0.baseAddress, Int32($0.count), sig, key) }
        ERR_clear_error()
        return result == 1
    }

    /// The uncompressed public key `04 ‖ X ‖ Y` for `privateKey` on `curve`.
    ///
    /// The corresponding C function is `EC_POINT_mul`.
    public static func publicKey(
        forPrivateKey privateKey: [UInt8], curve: OriginalityCurve = .secp128r1
    ) throws(OriginalitySignatureError) -> [UInt8] {
        let key = try makeKey(privateKey: privateKey, curve: curve)
        defer { EC_KEY_free(key) }
        guard let group = EC_KEY_get0_group(key), let point = EC_KEY_get0_public_key(key) else {
            throw .library("EC_KEY_get0_public_key")
        }
        let length = curve.publicKeyBytes
        var out = [UInt8](repeating: 0, count: length)
        let written = out.withUnsafeMutableBufferPointer {
            EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, $0.baseAddress, length, nil)
        }
        guard written == length else { throw .library("EC_POINT_point2oct") }
        return out
    }

    // MARK: - libcrypto helpers

    private static func makeKey(
        privateKey: [UInt8], curve: OriginalityCurve
    ) throws(OriginalitySignatureError) -> OpaquePointer {
        let width = curve.scalarBytes
        guard !privateKey.isEmpty, privateKey.count <= width else { throw .invalidPrivateKey }
        let padded = [UInt8](repeating: 0, count: width - privateKey.count) + privateKey
        guard padded.contains(where: { $0 != 0 }), padded.lexicographicallyPrecedes(curve.order) else {
            throw .invalidPrivateKey
        }
        guard let key = EC_KEY_new_by_curve_name(curve.nid) else { throw .library("EC_KEY_new_by_curve_name") }
        guard let group = EC_KEY_get0_group(key), let d = bignum(padded[...]) else {
            EC_KEY_free(key)
            throw .library("BN_bin2bn")
        }
        defer { BN_free(d) }
        guard let point = EC_POINT_new(group) else {
            EC_KEY_free(key)
            throw .library("EC_POINT_new")
        }
        defer { EC_POINT_free(point) }
        guard EC_POINT_mul(group, point, d, nil, nil, nil) == 1,
            EC_KEY_set_private_key(key, d) == 1,
            EC_KEY_set_public_key(key, point) == 1
        else {
            EC_KEY_free(key)
            throw .library("EC_KEY_set_private_key")
        }
        return key
    }

    private static func makeKey(
        publicKey: [UInt8], curve: OriginalityCurve
    ) throws(OriginalitySignatureError) -> OpaquePointer {
        let length = curve.publicKeyBytes
        guard publicKey.count == length, publicKey[0] == 0x04 else { throw .library("public key shape") }
        guard let key = EC_KEY_new_by_curve_name(curve.nid) else { throw .library("EC_KEY_new_by_curve_name") }
        let ok = publicKey.withUnsafeBufferPointer { EC_KEY_oct2key(key, $0.baseAddress, length, nil) }
        guard ok == 1, EC_KEY_check_key(key) == 1 else {
            EC_KEY_free(key)
            ERR_clear_error()
            throw .library("EC_KEY_oct2key")
        }
        return key
    }

    private static func bignum(_ bytes: ArraySlice<UInt8>) -> OpaquePointer? {
        Array(bytes).withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
    }

    private static func bigEndian(_ number: OpaquePointer, width: Int) throws(OriginalitySignatureError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width)
        let written = out.withUnsafeMutableBufferPointer { BN_bn2binpad(number, $0.baseAddress, Int32(width)) }
        guard written == Int32(width) else { throw .library("BN_bn2binpad") }
        return out
    }
}
