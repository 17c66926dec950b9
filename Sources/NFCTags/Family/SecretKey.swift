import Crypto
import Foundation
import NDEF

/// A brand key loaded for a job, known by id; its bytes never reach the ledger, logs or reports, and a key held in a
/// token (`KeyCustodian`) has no bytes in this process at all.
///
/// `description` prints only the id and the fingerprint, so interpolating a key into a message cannot leak it.
public struct SecretKey: Sendable, CustomStringConvertible {
    /// What a key is for, which decides how its fingerprint is computed (`KeyFingerprint`).
    public enum Kind: String, Sendable, Hashable {
        /// An AES-128 key (a keyed chip's master, a diversified tag key): fingerprinted with AES-CMAC.
        case aes
        /// An HMAC-SHA256 key (an NTAG21x brand key for PWD/PACK and URL MACs): fingerprinted with HMAC.
        case hmac
    }

    /// The id the manifest names it by.
    public let id: String
    /// What the key is for.
    public let kind: Kind
    /// The key bytes (kept in memory only); empty when `custodian` holds the key.
    package let bytes: [UInt8]
    /// Where the key is held when it is not in this process (a PKCS #11 token), else `nil`.
    public let custodian: (any KeyCustodian)?

    /// Wraps key bytes under `id`.
    public init(id: String, bytes: [UInt8], kind: Kind = .aes) {
        self.id = id
        self.kind = kind
        self.bytes = bytes
        self.custodian = nil
    }

    /// A key `custodian` holds, known here by `id`.
    public init(id: String, heldBy custodian: any KeyCustodian) {
        self.id = id
        self.kind = custodian.kind
        self.bytes = []
        self.custodian = custodian
    }

    /// The same key under another id (a manifest's id for a key named on the command line).
    public func renamed(_ id: String) -> SecretKey {
        if let custodian { return SecretKey(id: id, heldBy: custodian) }
        return SecretKey(id: id, bytes: bytes, kind: kind)
    }

    /// The key's `v1:` fingerprint (`KeyFingerprint`), computed where the key lives: what the ledger records so an
    /// audit, a resumed run and a verifier know which key was used.
    public var fingerprint: String {
        if let custodian { return custodian.fingerprint }
        if kind == .aes, bytes.count == 16, let aes = try? KeyFingerprint.aes(bytes) { return aes }
        return KeyFingerprint.hmac(bytes)
    }

    /// Whether `recorded` (a ledger's fingerprint, `v1:` or the SHA-256 scheme before it) names this key: `nil`
    /// when it cannot be told (a legacy fingerprint and a key held in a token, whose SHA-256 nobody can compute).
    public func matches(fingerprint recorded: String) -> Bool? {
        if KeyFingerprint.isVersion1(recorded) { return recorded == fingerprint }
        guard custodian == nil else { return nil }
        return recorded == KeyFingerprint.legacy(bytes)
    }

    public var description: String { "key \(id) (fingerprint \(fingerprint))" }

    /// HMAC-SHA256 under this key, computed where the key lives.
    ///
    /// - Throws: the custodian's error when the token cannot compute it (gone, mechanism refused).
    public func hmac(_ message: [UInt8]) throws -> [UInt8] {
        if let custodian { return try custodian.hmacSHA256(message) }
        return Digest.hmacSHA256(key: bytes, message: message)
    }
}

extension SecretKey {
    /// The AN10922 AES-128 key diversified from this master key for `input` (`KeyDiversification`), computed where
    /// the master lives; the derived key is held on the host for the tag that needs it.
    ///
    /// - Throws: `AES128Error` when this key is not 16 bytes or `input` is not 1–31 bytes; the custodian's error
    ///   when the token cannot compute it.
    public func diversified(input: [UInt8], id: String) throws -> SecretKey {
        if let custodian { return SecretKey(id: id, bytes: try custodian.an10922(input: input)) }
        return SecretKey(id: id, bytes: try KeyDiversification.an10922(masterKey: bytes, input: input))
    }

    /// The key's bytes as upper-case hex: only `provision keys diversify` shows a key, because printing the
    /// diversified key is what that command is asked for. A key held in a token has none (`nil`).
    public var hexForDisplay: String? { custodian == nil ? Hex.compact(bytes) : nil }
}

/// Where a key lives when this process never holds its bytes (a PKCS #11 token): the operations a master key is
/// used for run there, and only their results come back.
public protocol KeyCustodian: Sendable {
    /// What the key is for (from the token's key type).
    var kind: SecretKey.Kind { get }
    /// The key's `v1:` fingerprint, computed where it lives.
    var fingerprint: String { get }
    /// Where the key is, in words for messages (token label and object), never a PIN.
    var location: String { get }
    /// The AN10922 diversification of `input` (1–31 bytes) under the key.
    func an10922(input: [UInt8]) throws -> [UInt8]
    /// HMAC-SHA256 of `message` under the key.
    func hmacSHA256(_ message: [UInt8]) throws -> [UInt8]
}
