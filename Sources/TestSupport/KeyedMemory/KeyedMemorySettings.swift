import NDEF
import NFCTags

/// A keyed memory tag's dynamic-message settings (`D5`/`D6`, 8 bytes): whether they were made, where the UID,
/// counter and MAC windows sit in the message (`FFFF`: no such window), and who may rewrite the message.
public struct KeyedMemorySettings: Sendable, Hashable {
    /// Whether personalisation made them (delivery: `false`).
    public var isConfigured: Bool
    /// The windows' offsets in the message, by token.
    public var offsets: [KeyedMemoryToken: Int]
    /// Who may rewrite the message: 0 anyone, 1 with K0, 2 nobody.
    public var rights: UInt8

    /// The delivery settings.
    public static let factory = KeyedMemorySettings(isConfigured: false, offsets: [:], rights: 0)

    /// Creates settings.
    public init(isConfigured: Bool, offsets: [KeyedMemoryToken: Int], rights: UInt8) {
        self.isConfigured = isConfigured
        self.offsets = offsets
        self.rights = rights
    }

    /// Decodes the 8 bytes, `nil` for another length.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count == 8 else { return nil }
        isConfigured = bytes[0] == 1
        var offsets: [KeyedMemoryToken: Int] = [:]
        for (index, token) in KeyedMemoryToken.allCases.enumerated() {
            let value = Int(bytes[1 + 2 * index]) << 8 | Int(bytes[2 + 2 * index])
            if value != 0xFFFF { offsets[token] = value }
        }
        self.offsets = offsets
        rights = bytes[7]
    }

    /// The 8 bytes.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = [isConfigured ? 1 : 0]
        for token in KeyedMemoryToken.allCases {
            let value = offsets[token] ?? 0xFFFF
            bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
        }
        return bytes + [rights]
    }

    /// `message` as an unauthenticated read shows it: each window filled with its ASCII hex (a window that does
    /// not fit is left as written).
    public func fill(_ message: [UInt8], uid: [UInt8], counter: UInt32, macKey: [UInt8]) -> [UInt8] {
        var shown = message
        let mac = KeyedMemoryFamily.mac(key: SecretKey(id: "tag.K1", bytes: macKey), uid: uid, counter: counter)
        let texts: [KeyedMemoryToken: [UInt8]] = [
            .uid: Array(Hex.compact(uid).utf8), .counter: Array(KeyedMemoryToken.counterText(counter).utf8),
            .mac: Array(Hex.compact(mac).utf8),
        ]
        for (token, offset) in offsets {
            guard let text = texts[token], offset + text.count <= shown.count else { continue }
            shown.replaceSubrange(offset..<offset + text.count, with: text)
        }
        return shown
    }
}

/// The placeholders of the keyed memory chip's dynamic message: `{{kmem.uid}}`, `{{kmem.ctr}}`, `{{kmem.mac}}`.
public enum KeyedMemoryToken: String, Sendable, Hashable, CaseIterable {
    case uid = "kmem.uid"
    case counter = "kmem.ctr"
    case mac = "kmem.mac"

    /// What every token name starts with.
    public static let prefix = "kmem."

    /// The scheme's token.
    public var token: DynamicToken {
        switch self {
        case .uid: DynamicToken(name: rawValue, length: 14)
        case .counter: DynamicToken(name: rawValue, length: 8)
        case .mac: DynamicToken(name: rawValue, length: 16)
        }
    }

    /// The token a template names, `nil` for another scheme's.
    public init?(_ token: DynamicToken) { self.init(rawValue: token.name) }

    /// The counter as its window shows it: 8 upper-case hex digits.
    public static func counterText(_ counter: UInt32) -> String {
        Hex.compact([
            UInt8(counter >> 24), UInt8(counter >> 16 & 0xFF), UInt8(counter >> 8 & 0xFF), UInt8(counter & 0xFF),
        ])
    }
}
