import Foundation
import NFCTags

/// A manifest's product-authentication settings: named keys, the originality-signature policy and
/// password protection (`docs/reference/type2.md` §3.6, §3.8).
public struct ManifestSecurity: Sendable {
    /// What the line does with the originality signature (READ_SIG `3Ch`).
    public enum SignaturePolicy: String, Sendable, Hashable, CaseIterable {
        /// A tag whose signature does not verify is quarantined (recorded, never written).
        case require
        /// The result is stored per tag; nothing is refused.
        case record
        /// No READ_SIG is sent.
        case off
    }

    /// Which accesses the password guards (`PROT` bit of ACCESS).
    public enum ProtectedAccess: String, Sendable, Hashable, CaseIterable {
        /// Writes need PWD_AUTH (`PROT` = 0).
        case write
        /// Reads and writes need PWD_AUTH (`PROT` = 1).
        case readwrite
    }

    /// Where protection starts (`AUTH0`): the tag family's protection setting.
    public typealias ProtectionStart = PasswordProtection.Start

    /// A `protect` section.
    public struct Protection: Sendable, Hashable {
        /// The key id the per-tag password is derived from.
        public var key: String
        /// Where protection starts.
        public var auth0: ProtectionStart
        /// Which accesses are guarded.
        public var access: ProtectedAccess
        /// AUTHLIM, 0–7 (0: unlimited attempts).
        public var authLimit: Int
        /// Whether to set CFGLCK (configuration locked for good).
        public var configLock: Bool

        /// Creates protection settings.
        public init(
            key: String, auth0: ProtectionStart, access: ProtectedAccess = .write, authLimit: Int = 0,
            configLock: Bool = false
        ) {
            self.key = key
            self.auth0 = auth0
            self.access = access
            self.authLimit = authLimit
            self.configLock = configLock
        }
    }

    /// Keys by id and where each is loaded from.
    public var keys: [String: KeySource]
    /// The signature policy (default `off`).
    public var signature: SignaturePolicy
    /// Extra trusted originality public keys (`04 ‖ X ‖ Y`, 33 bytes) besides NXP's.
    public var trustedKeys: [[UInt8]]
    /// Password protection, if any.
    public var protection: Protection?

    /// Creates settings (default: no keys, signature off, no protection).
    public init(
        keys: [String: KeySource] = [:], signature: SignaturePolicy = .off, trustedKeys: [[UInt8]] = [],
        protection: Protection? = nil
    ) {
        self.keys = keys
        self.signature = signature
        self.trustedKeys = trustedKeys
        self.protection = protection
    }

    /// Loads every named key (at `run` start): those in `aesKeys` (a keyed scheme's master) as AES keys, the others
    /// as HMAC keys (`SecretKey.Kind`, which decides how a key file's fingerprint is computed).
    ///
    /// - Throws: the first `KeyError` (its message never holds key material).
    public func loadKeys(
        environment: [String: String], aesKeys: Set<String> = [], custody: KeyCustody = KeyCustody()
    ) throws(KeyError) -> [String: SecretKey] {
        var loaded: [String: SecretKey] = [:]
        for id in keys.keys.sorted() {
            guard let source = keys[id] else { continue }
            loaded[id] = try KeyLoader.load(
                id: id, from: source, environment: environment, kind: aesKeys.contains(id) ? .aes : .hmac,
                custody: custody)
        }
        return loaded
    }
}
