internal import CCrypto

/// Cryptographically secure random bytes from libcrypto's `RAND_bytes` (RndA of NTAG 424 DNA
/// authentication; never a Swift or C library PRNG).
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        precondition(ok == 1, "RAND_bytes failed: libcrypto has no entropy source")
        return out
    }
}
