import Crypto

/// Trust material that is public: the repository's test signing keys (secp128r1 for NTAG21x, secp224r1 for
/// NTAG 424 DNA) and the documented sample keys.
///
/// A job using any of it proves nothing on a real line (anyone can sign or MAC with it), so `run`
/// refuses such a job on a non-simulated reader unless the operator passes `--allow-test-keys`.
public enum TestKeyMaterial {
    /// Sample brand keys printed in the docs (docs/authentication.md `PROVISION_SAMPLE_BRAND_KEY`).
    static let documentedKeys: [[UInt8]] = [Array(0x00...0x1F)]

    /// Why a job's keys and trust list are test material, one line each; empty when they are not.
    public static func problems(trusted: [[UInt8]], keys: [String: SecretKey]) -> [String] {
        var found: [String] = []
        if trusted.contains(OriginalitySignature.repositoryTestPublicKey) {
            found.append(
                "signature.trust holds the repository's test signing key (its private half is in the sources: "
                    + "any tag can be made to pass)")
        }
        if trusted.contains(OriginalitySignature.repositoryNTAG424TestPublicKey) {
            found.append(
                "signature.trust holds the repository's NTAG 424 DNA test signing key (its private half is in the "
                    + "sources: any tag can be made to pass)")
        }
        for id in keys.keys.sorted() where documentedKeys.contains(keys[id]?.bytes ?? []) {
            found.append("key '\(id)' is the documented sample key (anyone can compute its MACs and passwords)")
        }
        return found
    }
}
