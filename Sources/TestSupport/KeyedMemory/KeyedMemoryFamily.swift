import Crypto
import NFCTags

/// A second keyed tag family that lives only in TestSupport: it proves that keyed personalisation (keys, a
/// journaled key change, a dynamic message with a MAC) runs through `run`, `audit` and `verify-url` by the family
/// seams alone, with no line of NFCTags, Provisioning or the CLI naming it.
///
/// Its one chip, KMEM-1 (`"tag": "kmem-1"`), is announced with SAK `48h`, which no shipped family claims (bit 3 set
/// and bit 5 clear: neither Type 2 nor Type 4), so it is reached in `TagFamilies.standard` order too; it answers
/// the made-up command set of `KeyedMemoryTag`. Register it with `TagFamilies.register(KeyedMemoryFamily())`.
public struct KeyedMemoryFamily: TagFamily {
    /// The family's name.
    public static let name = "keyedmem"
    /// The SAK its tags announce.
    public static let sak: UInt8 = 0x48
    /// The one chip.
    public static let chip = TagChip(family: name, id: "kmem-1", displayName: "KMEM-1")
    /// The key number of the application master key, which may change every key.
    public static let masterKey = 0
    /// The key number of the MAC key of the dynamic message.
    public static let macKey = 1
    /// The delivery keys K0 and K1: sixteen `4B` bytes each, version `00`.
    public static let deliveryKeys = (0..<2).map {
        SecretKey(id: "kmem-delivery.K\($0)", bytes: .init(repeating: 0x4B, count: 16))
    }
    /// The version every job key gets.
    public static let jobKeyVersion: UInt8 = 0x01

    public var name: String { Self.name }
    public var displayName: String { "Keyed memory (test)" }
    /// Announced by SAK, like an ISO/IEC 14443-A tag.
    public var transport: Transport { .iso14443A }
    public var keyedSchemes: [any KeyedScheme] { [KeyedMemoryScheme()] }

    public var chips: [ChipDescriptor] {
        [
            ChipDescriptor(
                family: Self.name, manifestName: Self.chip.id, displayName: Self.chip.displayName, accepts: [Self.chip],
                userMemory: 256, capacity: .bytes(256), capacityNote: "256-byte message memory", uidForm: .sevenByteUID,
                simulatorName: nil, capabilities: ChipCapabilities(locks: [.fileSettings]),
                identification: "answers D0 with 'KMM'")
        ]
    }

    /// Creates the family.
    public init() {}

    public func handles(_ activation: DetectedTag) -> Bool { activation.sak == Self.sak }

    public func open(_ transceiver: any Transceiver, activation: DetectedTag?) -> any FamilyTag {
        KeyedMemoryFamilyTag(transceiver)
    }

    /// The `D3` authentication proof with `key` for the tag `uid`: HMAC-SHA256(key, "kmem-auth" ‖ UID), 8 bytes.
    /// Tag keys are diversified, so always on the host: their HMACs are computed here.
    public static func proof(key: SecretKey, uid: [UInt8]) -> [UInt8] {
        Array(Digest.hmacSHA256(key: key.bytes, message: Array("kmem-auth".utf8) + uid).prefix(8))
    }

    /// The dynamic message's MAC: HMAC-SHA256(K1, UID ‖ counter big-endian), 8 bytes.
    public static func mac(key: SecretKey, uid: [UInt8], counter: UInt32) -> [UInt8] {
        let counterBytes = [
            UInt8(counter >> 24), UInt8(counter >> 16 & 0xFF), UInt8(counter >> 8 & 0xFF), UInt8(counter & 0xFF),
        ]
        return Array(Digest.hmacSHA256(key: key.bytes, message: uid + counterBytes).prefix(8))
    }
}
