import Crypto
import NFCTags

/// Whether a job can run on the simulator at all: simulated tags carry originality signatures made with the
/// repository's test signing keys, which only a job trusting them (or merely recording signatures) accepts.
extension ManifestSecurity {
    /// Whether this policy refuses every simulated tag of `tag`'s family: `require`, with the repository's test
    /// signing key of the target's curve (secp224r1 or secp128r1, `ChipCapabilities.originalitySignature`) not in
    /// `signature.trust`.
    public func refusesSimulatedTags(of tag: TagTarget) -> Bool {
        guard signature == .require else { return false }
        let testKey =
            tag.capabilities.originalitySignature == .secp224r1
            ? OriginalitySignature.repositoryNTAG424TestPublicKey
            : OriginalitySignature.repositoryTestPublicKey
        return !trustedKeys.contains(testKey)
    }
}
