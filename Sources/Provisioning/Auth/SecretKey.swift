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
    let bytes: [UInt8]

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
