import Crypto
import Foundation
import NDEF
import NFCTags

/// The message authentication code in a tap URL (`{{mac:KEYID}}` in templates): HMAC-SHA256 over an
/// unambiguous encoding of the inputs, truncated.
///
/// Encoding (documented in docs/authentication.md), every string UTF-8:
/// ```
/// "provision/url-mac/v1" 00 | len(job) job | len(field1) field1 | … | len(fieldN) fieldN
/// ```
/// where `len` is a 4-byte big-endian byte count. The label separates this use of the key from any
/// other; length prefixes make `("ab","c")` and `("a","bc")` different messages.
public struct URLMAC: Sendable, Hashable {
    /// How the truncated MAC is written into the URL.
    public enum Rendering: String, Sendable, Hashable {
        /// Upper-case hex (2 characters per byte).
        case hex
        /// base64url without padding (RFC 4648 §5).
        case base64url
    }

    /// The domain-separation label.
    public static let label = "provision/url-mac/v1"

    /// Bytes kept from the 32-byte HMAC (1–32; default 8).
    public var bytes: Int
    /// Rendering in the URL.
    public var rendering: Rendering

    /// Creates a MAC setting.
    public init(bytes: Int = 8, rendering: Rendering = .hex) {
        self.bytes = min(max(bytes, 1), 32)
        self.rendering = rendering
    }

    /// The exact byte string that is MAC'd.
    public static func message(job: String, fields: [String]) -> [UInt8] {
        var out = Array(label.utf8) + [0x00]
        for text in [job] + fields {
            let bytes = Array(text.utf8)
            let count = UInt32(bytes.count)
            out += [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
            out += bytes
        }
        return out
    }

    /// The rendered MAC of `fields` for `job` under `key`.
    public func render(key: SecretKey, job: String, fields: [String]) throws -> String {
        let mac = Array(try key.hmac(Self.message(job: job, fields: fields)).prefix(bytes))
        switch rendering {
        case .hex: return Hex.compact(mac)
        case .base64url:
            return Data(mac).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
    }

    /// Length of the rendered MAC (for pre-flight sizing).
    public var renderedLength: Int {
        switch rendering {
        case .hex: bytes * 2
        case .base64url: (bytes * 4 + 2) / 3
        }
    }

    /// Whether `presented` is the MAC of `fields`, compared in constant time (`ConstantTime`).
    ///
    /// - Throws: when the key's token cannot compute the MAC.
    public func matches(_ presented: String, key: SecretKey, job: String, fields: [String]) throws -> Bool {
        let expected = Array(try render(key: key, job: job, fields: fields).utf8)
        let given = Array((rendering == .hex ? presented.uppercased() : presented).utf8)
        return ConstantTime.equal(expected, given)
    }
}
