import Crypto
import NFCTags

/// Trust material that is public: the repository's test signing keys (`TestSigningKeys`), the documented sample
/// keys and the keyed schemes' delivery keys.
///
/// A job using any of it proves nothing on a real line (anyone can sign or MAC with it), so `run`
/// refuses such a job on a non-simulated reader unless the operator passes `--allow-test-keys`.
public enum TestKeyMaterial {
    /// Keys anyone knows, each with what it is: the sample keys printed in the README and docs
    /// (`PROVISION_SAMPLE_BRAND_KEY` for jobs/auth.json, `PROVISION_SAMPLE_SUN_MASTER_KEY` for jobs/sun.json), then
    /// the delivery keys of every keyed scheme (`KeyedScheme.publicKeys`).
    static var documentedKeys: [PublicKeyMaterial] {
        [
            PublicKeyMaterial(
                bytes: Array(0x00...0x1F),
                what: "the documented sample key (PROVISION_SAMPLE_BRAND_KEY, jobs/auth.json)"),
            PublicKeyMaterial(
                bytes: Array(0x00...0x0F),
                what: "the documented sample SUN master key (PROVISION_SAMPLE_SUN_MASTER_KEY, jobs/sun.json)"),
        ] + TagFamilies.standard.keyedSchemes.flatMap(\.publicKeys)
    }

    /// Why a job's keys and trust list are test material, one line each; empty when they are not.
    public static func problems(trusted: [[UInt8]], keys: [String: SecretKey]) -> [String] {
        var found: [String] = []
        for key in TestSigningKeys.all where trusted.contains(key.bytes) {
            found.append(
                "signature.trust holds \(key.what) (its private half is in the sources: any tag can be made to pass)")
        }
        for id in keys.keys.sorted() {
            guard let key = keys[id], let known = documentedKeys.first(where: { isKnown(key, $0) }) else { continue }
            found.append("key '\(id)' is \(known.what) (anyone can compute its MACs, passwords and tag keys)")
        }
        return found
    }

    /// Whether `key` is `known`: by its bytes on the host, by fingerprint (AES or HMAC) wherever it lives, so a
    /// documented key imported into a token is caught too.
    static func isKnown(_ key: SecretKey, _ known: PublicKeyMaterial) -> Bool {
        if key.custodian == nil, key.bytes == known.bytes { return true }
        let fingerprints = [KeyFingerprint.hmac(known.bytes), try? KeyFingerprint.aes(known.bytes)]
        return fingerprints.contains(key.fingerprint)
    }
}
