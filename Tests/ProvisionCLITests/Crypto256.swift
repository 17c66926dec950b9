import Crypto

/// SHA-256 for assertions against the ledger and reports.
enum Crypto256 {
    static func sha(_ bytes: [UInt8]) -> [UInt8] { Digest.sha256(bytes) }
}
