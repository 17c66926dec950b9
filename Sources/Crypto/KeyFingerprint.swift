import Support

/// Key fingerprints (scheme `v1`) computed where the key lives, so a file key and the same key in a token match.
///
/// An AES key's fingerprint is the first 8 bytes of AES-CMAC(K, "provision key fingerprint v1"); an HMAC key's
/// is the first 8 bytes of HMAC-SHA256(K, the same text), written `v1:` and 16 upper-case hex digits (issue 42).
/// The MAC reveals nothing of the key, and HMAC pads short keys with zeros (RFC 2104 §2), so a 16-byte key and
/// its 32-byte zero-padded copy in a token have the same fingerprint. `TokenSession.fingerprint(of:)` is the
/// token side; these functions are the host twins for key bytes from a file or the environment.
public enum KeyFingerprint {
    /// The MACed text: `provision key fingerprint v1` in ASCII.
    public static let text = Array("provision key fingerprint v1".utf8)

    /// The fingerprint of a 16-byte AES key held on the host (libcrypto's CMAC, `AES128.cmac`).
    public static func aes(_ key: [UInt8]) throws(AES128Error) -> String {
        format(try AES128.cmac(key: key, text))
    }

    /// The fingerprint of an HMAC-SHA256 key held on the host (libcrypto's HMAC, `Digest.hmacSHA256`).
    public static func hmac(_ key: [UInt8]) -> String {
        format(Digest.hmacSHA256(key: key, message: text))
    }

    /// The scheme before `v1` (rows recorded before it keep it): the first 8 bytes of SHA-256 of the key's bytes,
    /// 16 upper-case hex digits without a prefix. Only a key on the host has one.
    public static func legacy(_ key: [UInt8]) -> String { HexEncoding.encode(Digest.sha256(key).prefix(8)) }

    /// Whether `fingerprint` is written in the `v1` scheme (else it is a `legacy` one).
    public static func isVersion1(_ fingerprint: String) -> Bool { fingerprint.hasPrefix("v1:") }

    /// `v1:` and the first 8 bytes of `mac` in upper-case hex.
    public static func format(_ mac: [UInt8]) -> String { "v1:" + HexEncoding.encode(mac.prefix(8)) }
}
