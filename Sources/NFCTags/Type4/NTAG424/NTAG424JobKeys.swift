import Crypto

/// A keyed NTAG 424 DNA job's application keys K0–K4, diversified from its master key with AN10922
/// (docs/authentication.md, "Key roles"): K1 over `00×7 ‖ 01 ‖ systemIdentifier` (one key for the job, so a
/// verifier can decrypt the PICC data before it knows the UID), every other key over
/// `UID(7) ‖ key number ‖ systemIdentifier`.
///
/// Keys are named `<master id>.K<n>` (the ledger's key journal records them by that id, a version and a
/// fingerprint, never the bytes).
public struct NTAG424JobKeys: Sendable {
    /// The master key (the manifest's `ntag424.master`).
    public let master: SecretKey
    /// The AN10922 system identifier.
    public let systemIdentifier: [UInt8]
    /// The key version every job key gets on the tag (factory keys are version `00`).
    public let version: UInt8

    /// The version byte a job's new keys carry.
    public static let jobKeyVersion: UInt8 = 0x01
    /// The delivery keys K0–K4 (all zero, version `00`).
    public static let factory: [SecretKey] = (0..<5).map {
        SecretKey(id: "factory.k\($0)", bytes: Array(repeating: 0, count: 16))
    }

    /// The keys of a job with `master` and `systemIdentifier`.
    public init(master: SecretKey, systemIdentifier: [UInt8], version: UInt8 = Self.jobKeyVersion) {
        self.master = master
        self.systemIdentifier = systemIdentifier
        self.version = version
    }

    /// K0–K4 of the tag `uid` (`NTAG424KeySet`).
    ///
    /// - Throws: `AES128Error` when the master key is not 16 bytes, the UID not 7 or the identifier not 1–20.
    public func keys(uid: [UInt8]) throws -> [SecretKey] {
        try NTAG424KeySet(master: master, uid: uid, systemIdentifier: systemIdentifier).keys
    }

    /// Key `number` (0–4) of the tag `uid` alone (`NTAG424KeySet.key`).
    public func key(_ number: Int, uid: [UInt8]) throws -> SecretKey {
        guard let number = UInt8(exactly: number) else { throw AES128Error.blockLength(number) }
        return try NTAG424KeySet.key(number, master: master, uid: uid, systemIdentifier: systemIdentifier)
    }

    /// K1, the SDM meta-read key: decrypts every tag's PICC data.
    public func metaReadKey() throws -> SecretKey { try key(1, uid: Array(repeating: 0, count: 7)) }

    /// K2 of `uid`, the SDM file-read key its SUN MAC's session key comes from.
    public func fileReadKey(uid: [UInt8]) throws -> SecretKey { try key(2, uid: uid) }
}
