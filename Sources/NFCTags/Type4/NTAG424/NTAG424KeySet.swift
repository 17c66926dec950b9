import Crypto

/// The five application keys of one NTAG 424 DNA, diversified from a job's master key with AN10922
/// (docs/authentication.md): K0, K2, K3, K4 from `UID ‖ key number ‖ systemIdentifier`, and K1 from
/// `00×7 ‖ 01 ‖ systemIdentifier`, the same for every tag of the job (the verifier decrypts the PICC data
/// with it before it knows the UID).
public struct NTAG424KeySet: Sendable {
    /// K0…K4, by key number; their ids are `<master id>.K0` … and their bytes never leave `SecretKey`.
    public let keys: [SecretKey]

    /// Derives the keys of the tag with `uid` (7 bytes) under `master` for `systemIdentifier` (1–20 bytes).
    ///
    /// - Throws: `AES128Error` for a master key that is not 16 bytes or a UID or identifier out of range.
    public init(master: SecretKey, uid: [UInt8], systemIdentifier: [UInt8]) throws {
        keys = try (UInt8(0)...4).map { try Self.key($0, master: master, uid: uid, systemIdentifier: systemIdentifier) }
    }

    /// Key `number` (0–4) of the tag alone: one AN10922 derivation.
    ///
    /// - Throws: `AES128Error` as `init`.
    public static func key(_ number: UInt8, master: SecretKey, uid: [UInt8], systemIdentifier: [UInt8]) throws
        -> SecretKey
    {
        guard uid.count == 7 else { throw AES128Error.blockLength(uid.count) }
        guard (1...20).contains(systemIdentifier.count) else { throw AES128Error.blockLength(systemIdentifier.count) }
        guard number <= 4 else { throw AES128Error.blockLength(Int(number)) }
        let input = (number == 1 ? [UInt8](repeating: 0, count: 7) : uid) + [number] + systemIdentifier
        return try master.diversified(input: input, id: "\(master.id).K\(number)")
    }

    /// Key `number` (0–4).
    public subscript(number: Int) -> SecretKey { keys[number] }
}
