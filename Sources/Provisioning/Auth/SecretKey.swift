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

/// Where a key comes from, as written in a manifest's `keys` section.
public enum KeySource: Sendable, Hashable {
    /// An environment variable holding hex or base64.
    case environment(String)
    /// A file holding hex, base64 or raw bytes; it must not be readable by group or others.
    case file(URL)
}

/// Why a key could not be loaded. Messages never contain key material.
public struct KeyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable reasons.
    public enum Reason: String, Sendable, Hashable {
        case missing, unreadable, permissions, malformed, tooShort
    }
    /// The key id.
    public var id: String
    /// Why.
    public var reason: Reason
    /// What to do, in words.
    public var message: String

    public var description: String { "key '\(id)': \(message)" }
}

/// Loads keys from environment variables or owner-only files.
public enum KeyLoader {
    /// Loads key `id` from `source`; keys shorter than 16 bytes are refused.
    public static func load(
        id: String, from source: KeySource, environment: [String: String]
    ) throws(KeyError) -> SecretKey {
        let text: String
        switch source {
        case .environment(let name):
            guard let value = environment[name], !value.isEmpty else {
                throw KeyError(id: id, reason: .missing, message: "environment variable \(name) is not set")
            }
            text = value
        case .file(let url):
            let attributes: [FileAttributeKey: Any]
            do {
                attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            } catch {
                throw KeyError(id: id, reason: .missing, message: "cannot read key file \(url.path)")
            }
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0o777
            guard mode & 0o077 == 0 else {
                throw KeyError(
                    id: id, reason: .permissions,
                    message: "key file \(url.path) is readable by group or others (mode \(String(mode, radix: 8))); "
                        + "run: chmod 600 \(url.path)")
            }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw KeyError(id: id, reason: .unreadable, message: "cannot read key file \(url.path)")
            }
            if let decoded = String(data: data, encoding: .utf8).flatMap({ decode($0) }) {
                return try checked(SecretKey(id: id, bytes: decoded))
            }
            return try checked(SecretKey(id: id, bytes: Array(data)))
        }
        guard let bytes = decode(text) else {
            throw KeyError(id: id, reason: .malformed, message: "value is neither hex nor base64")
        }
        return try checked(SecretKey(id: id, bytes: bytes))
    }

    /// Hex (even digits) first, then standard or URL-safe base64.
    static func decode(_ text: String) -> [UInt8]? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        if trimmed.count % 2 == 0, let bytes = Hex.bytes(trimmed), !bytes.isEmpty { return bytes }
        var base64 = trimmed.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map(Array.init)
    }

    private static func checked(_ key: SecretKey) throws(KeyError) -> SecretKey {
        guard key.bytes.count >= 16 else {
            throw KeyError(id: key.id, reason: .tooShort, message: "key is shorter than 16 bytes")
        }
        return key
    }
}
