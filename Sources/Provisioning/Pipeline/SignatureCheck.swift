import Crypto
import NFCTags

/// The originality-signature check of a job: its policy and trust anchors (`docs/reference/type2.md` §3.8,
/// `docs/reference/type4.md` §2.9).
///
/// The curve is never configured: a trusted key's length names it (33 bytes secp128r1, 57 bytes secp224r1), and
/// a signature verifies only under keys of its own size (READ_SIG's 32 bytes, Read_Sig's 56).
public struct SignatureCheck: Sendable, Hashable {
    /// `require` or `record` (`off` means no check at all: no `SignatureCheck`).
    public var policy: ManifestSecurity.SignaturePolicy
    /// Public keys (`04 ‖ X ‖ Y`) a signature may verify under: NXP's published keys (`OriginalityKey`) first,
    /// then the job's `signature.trust` keys.
    public var trustedKeys: [[UInt8]]

    /// NXP's published originality keys, in `OriginalityKey` order (the families' secp128r1 and secp224r1 keys).
    public static let nxpKeys = OriginalityKey.allCases.map(\.publicKey)

    /// Creates a check trusting NXP's keys plus `extraKeys`.
    public init(policy: ManifestSecurity.SignaturePolicy, extraKeys: [[UInt8]] = []) {
        self.policy = policy
        self.trustedKeys = Self.nxpKeys + extraKeys
    }

    /// The check a manifest asks for (`nil` for `off`).
    public init?(_ security: ManifestSecurity) {
        guard security.signature != .off else { return nil }
        self.init(policy: security.signature, extraKeys: security.trustedKeys)
    }

    /// Whether `signature` (r ‖ s) verifies for `uid` under any trusted key of its curve.
    public func verify(uid: [UInt8], signature: [UInt8]) -> Bool {
        trustedKeys.contains { key in
            guard let curve = OriginalityCurve(publicKeyBytes: key.count), signature.count == curve.signatureBytes
            else { return false }
            return OriginalitySignature.verify(uid: uid, signature: signature, publicKey: key, curve: curve)
        }
    }
}

/// What the originality check found for one tag (stored in the ledger as the raw value).
public enum SignatureStatus: String, Sendable, Hashable {
    /// Verified under a trusted key.
    case valid
    /// Answered, but verifies under no trusted key.
    case invalid
    /// READ_SIG / Read_Sig failed (NAK, no answer, a refusal, a chip answering with a random ID).
    case unreadable
    /// The reader path cannot send READ_SIG (a PC/SC reader without raw commands, style `plain`, and a Type 2
    /// tag; Read_Sig to a Type 4 tag is an ordinary APDU every path passes).
    case unavailable
}
