import Crypto
import NFCTags

/// The originality-signature check of a job: its policy and trust anchors (`type2-ntag.md` §3.8).
public struct SignatureCheck: Sendable, Hashable {
    /// `require` or `record` (`off` means no check at all: no `SignatureCheck`).
    public var policy: ManifestSecurity.SignaturePolicy
    /// Public keys (`04 ‖ X ‖ Y`) a signature may verify under: NXP's NTAG21x and EV1 keys first,
    /// then the job's `signature.trust` keys.
    public var trustedKeys: [[UInt8]]

    /// Creates a check trusting NXP's keys plus `extraKeys`.
    public init(policy: ManifestSecurity.SignaturePolicy, extraKeys: [[UInt8]] = []) {
        self.policy = policy
        self.trustedKeys =
            [OriginalitySignature.ntag21xPublicKey, OriginalitySignature.ultralightEV1PublicKey] + extraKeys
    }

    /// The check a manifest asks for (`nil` for `off`).
    public init?(_ security: ManifestSecurity) {
        guard security.signature != .off else { return nil }
        self.init(policy: security.signature, extraKeys: security.trustedKeys)
    }

    /// Whether `signature` (r ‖ s) verifies for `uid` under any trusted key.
    public func verify(uid: [UInt8], signature: [UInt8]) -> Bool {
        trustedKeys.contains { OriginalitySignature.verify(uid: uid, signature: signature, publicKey: $0) }
    }
}

/// What the originality check found for one tag (stored in the ledger as the raw value).
public enum SignatureStatus: String, Sendable, Hashable {
    /// Verified under a trusted key.
    case valid
    /// Answered, but verifies under no trusted key.
    case invalid
    /// READ_SIG failed (NAK or no answer).
    case unreadable
    /// The reader path cannot send READ_SIG (a PC/SC reader without raw commands, style `plain`).
    case unavailable
}
