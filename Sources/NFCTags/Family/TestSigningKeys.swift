import Crypto

/// The repository's test signing keys (their private halves are in `Sources/TagEmulator`), each with the name a
/// refusal gives it: public trust material a job must not list on a real line (`TestKeyMaterial`).
public enum TestSigningKeys {
    /// The public keys, in the order refusals list them.
    public static let all: [PublicKeyMaterial] = [
        PublicKeyMaterial(
            bytes: OriginalitySignature.repositoryTestPublicKey, what: "the repository's test signing key"),
        PublicKeyMaterial(
            bytes: OriginalitySignature.repositoryNTAG424TestPublicKey,
            what: "the repository's NTAG 424 DNA test signing key"),
    ]
}
