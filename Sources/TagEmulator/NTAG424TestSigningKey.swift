import Crypto

/// The repository's secp224r1 test key for emulated NTAG 424 DNA Read_Sig answers (`docs/reference/type4.md` §2.9).
///
/// NXP's private key is secret, so emulated NTAG 424 DNA tags sign their UID with this key instead; a verifier
/// configured with `publicKey` accepts them, one configured with NXP's key rejects them (as it should). The
/// private half is published right here: it protects nothing and proves nothing about a tag, so a job trusting
/// it is refused on a real reader (`TestKeyMaterial`) just as a job trusting `TestSigningKey` is.
/// Generated with `openssl ecparam -name secp224r1 -genkey`.
public enum NTAG424TestSigningKey {
    /// The private scalar d, 28 bytes big-endian.
    public static let privateKey: [UInt8] = [
        0x26, 0xEB, 0xD7, 0x25, 0x93, 0xE3, 0xAB, 0xFA, 0x32, 0x41, 0x26, 0x2C, 0xB4, 0xA4,
        0xEA, 0xC7, 0xD3, 0x07, 0x42, 0x4B, 0x58, 0x9C, 0x87, 0x50, 0x9A, 0xA5, 0x26, 0x2D,
    ]

    /// The public point `04 ‖ X ‖ Y` (57 bytes) for `privateKey`.
    public static let publicKey: [UInt8] = OriginalitySignature.repositoryNTAG424TestPublicKey
}
