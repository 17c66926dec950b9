import Crypto

/// The repository's secp128r1 test key for emulated READ_SIG answers (`docs/reference/type2.md` §3.8).
///
/// NXP's private key is secret, so emulated tags sign their UID with this key instead; a verifier
/// configured with `publicKey` accepts them, one configured with NXP's key rejects them (as it should).
/// Generated with `openssl ecparam -name secp128r1 -genkey`; it protects nothing.
public enum TestSigningKey {
    /// The private scalar d, 16 bytes big-endian.
    public static let privateKey: [UInt8] = [
        0xE8, 0xE4, 0xE6, 0x63, 0xB6, 0x58, 0x14, 0x3B, 0xD7, 0x0A, 0x1B, 0xC1, 0x50, 0x48, 0x42, 0x7E,
    ]

    /// The public point `04 ‖ X ‖ Y` (33 bytes) for `privateKey`.
    public static let publicKey: [UInt8] = OriginalitySignature.repositoryTestPublicKey
}
