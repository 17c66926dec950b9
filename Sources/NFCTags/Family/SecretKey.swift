import Crypto
import Foundation
import NDEF

/// A brand key loaded for a job, known by id; the bytes never reach the ledger, logs or reports.
///
/// `description` prints only the id and the fingerprint, so interpolating a key into a message
/// cannot leak it.
public struct SecretKey: Sendable, CustomStringConvertible {
    /// The id the manifest names it by.
    public let id: String
    /// The key bytes (kept in memory only).
    package let bytes: [UInt8]

    /// Wraps key bytes under `id`.
    public init(id: String, bytes: [UInt8]) {
        self.id = id
        self.bytes = bytes
    }

    /// First 8 bytes of SHA-256 of the key, upper-case hex: what the ledger records so an audit
    /// knows which key was used.
    public var fingerprint: String { Hex.compact(Digest.sha256(bytes).prefix(8)) }

    public var description: String { "key \(id) (fingerprint \(fingerprint))" }

    /// HMAC-SHA256 under this key.
    public func hmac(_ message: [UInt8]) -> [UInt8] { Digest.hmacSHA256(key: bytes, message: message) }
}

extension SecretKey {
    /// The AN10922 AES-128 key diversified from this master key for `input` (`KeyDiversification`).
    ///
    /// - Throws: `AES128Error` when this key is not 16 bytes or `input` is not 1–31 bytes.
    public func diversified(input: [UInt8], id: String) throws(AES128Error) -> SecretKey {
        SecretKey(id: id, bytes: try KeyDiversification.an10922(masterKey: bytes, input: input))
    }

    /// The key's bytes as upper-case hex: only `provision keys diversify` shows a key, because printing the
    /// diversified key is what that command is asked for.
    public var hexForDisplay: String { Hex.compact(bytes) }
}
