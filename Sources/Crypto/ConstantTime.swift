internal import CCrypto

/// Comparison of secret-derived bytes (MACs) whose time does not depend on where they differ, so an attacker
/// cannot find a valid MAC byte by byte from answer times; every MAC check in the package goes through it.
public enum ConstantTime {
    /// Whether `a` and `b` are equal: lengths first (a MAC's length is public), then every byte with OpenSSL's
    /// `CRYPTO_memcmp`, which reads all of them whatever differs.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in CRYPTO_memcmp(left.baseAddress, right.baseAddress, a.count) == 0 }
        }
    }
}
