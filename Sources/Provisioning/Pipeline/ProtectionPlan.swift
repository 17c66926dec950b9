import NFCTags

/// One tag's password protection: its derived PWD/PACK and the job's AUTH0/ACCESS settings
/// (`docs/reference/type2.md` §2.6, §3.6).
public struct ProtectionPlan: Sendable, Hashable {
    /// PWD and PACK for this tag.
    public var password: TagPassword
    /// Where protection starts.
    public var start: ManifestSecurity.ProtectionStart
    /// Reads too, or writes only.
    public var access: ManifestSecurity.ProtectedAccess
    /// AUTHLIM (0–7).
    public var authLimit: Int
    /// CFGLCK.
    public var configLock: Bool

    /// The plan for the tag `uid` under `protection`, with PWD/PACK derived from `key`.
    ///
    /// - Throws: when the key's token cannot compute the password.
    public init(_ protection: ManifestSecurity.Protection, key: SecretKey, uid: [UInt8]) throws {
        password = try TagPassword(key: key, uid: uid)
        start = protection.auth0
        access = protection.access
        authLimit = protection.authLimit
        configLock = protection.configLock
    }

    /// What the tag family's protection capability sets.
    public var settings: PasswordProtection {
        PasswordProtection(
            password: password.pwd, acknowledge: password.pack, start: start, protectsReads: access == .readwrite,
            authLimit: authLimit, configLock: configLock)
    }
}
