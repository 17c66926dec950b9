import Crypto

/// SHA-256 for assertions against the ledger and reports.
enum Crypto256 {
    static func sha(_ bytes: [UInt8]) -> [UInt8] { Digest.sha256(bytes) }
}

extension Crypto256 {
    /// HMAC-SHA256 for recomputing URL MACs independently of the Provisioning module.
    static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] { Digest.hmacSHA256(key: key, message: message) }
}
