internal import CPKCS11

/// A secret key found in a token: its object handle and what the layer needs to choose mechanisms for it.
///
/// Holds no key bytes (the token never gives them out); `description` names the label only. The handle is used
/// with the session that found it, while that session stays logged in.
public struct TokenKey: Sendable, Hashable, CustomStringConvertible {
    /// The object handle (`CK_OBJECT_HANDLE`).
    public let handle: UInt
    /// `CKA_LABEL`.
    public let label: String
    /// `CKA_ID`.
    public let id: [UInt8]
    /// `CKA_KEY_TYPE`.
    public let keyType: KeyType
    /// `CKA_VALUE_LEN` in bytes, `nil` when the token does not say.
    public let valueLength: Int?
    /// `CKA_SIGN`: the key may MAC (`CKM_AES_CMAC`, `CKM_SHA256_HMAC`).
    public let canSign: Bool
    /// `CKA_ENCRYPT`: the key may encrypt (`CKM_AES_ECB`, `CKM_AES_CBC`).
    public let canEncrypt: Bool
    /// `CKA_DECRYPT`: the key may decrypt.
    public let canDecrypt: Bool

    /// Creates a key description (the session makes these; tests of callers may too).
    public init(
        handle: UInt, label: String, id: [UInt8] = [], keyType: KeyType, valueLength: Int?, canSign: Bool,
        canEncrypt: Bool, canDecrypt: Bool
    ) {
        self.handle = handle
        self.label = label
        self.id = id
        self.keyType = keyType
        self.valueLength = valueLength
        self.canSign = canSign
        self.canEncrypt = canEncrypt
        self.canDecrypt = canDecrypt
    }

    public var description: String { "key \(label)" }

    /// A `CKK_*` key type.
    public struct KeyType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// `CKK_AES`.
        public static let aes = KeyType(rawValue: UInt(CKK_AES))
        /// `CKK_GENERIC_SECRET` (HMAC keys; SoftHSM2 needs 32 bytes at least, docs/reference/pkcs11.md §4).
        public static let genericSecret = KeyType(rawValue: UInt(CKK_GENERIC_SECRET))
        /// `CKK_SHA256_HMAC`.
        public static let sha256HMAC = KeyType(rawValue: UInt(CKK_SHA256_HMAC))

        /// Whether keys of this type are HMAC keys.
        public var isHMAC: Bool { self == .genericSecret || self == .sha256HMAC }

        public var description: String {
            switch self {
            case .aes: "CKK_AES"
            case .genericSecret: "CKK_GENERIC_SECRET"
            case .sha256HMAC: "CKK_SHA256_HMAC"
            default: "CKK 0x" + String(rawValue, radix: 16, uppercase: true)
            }
        }
    }
}

/// The custody attributes of a key, as `keys list` shows them and as the master checks need them.
///
/// Each flag is `nil` when the token does not report it (older modules have no `CKA_COPYABLE`).
public struct TokenKeyAttributes: Sendable, Hashable {
    /// `CKA_LABEL`.
    public var label: String
    /// `CKA_ID`.
    public var id: [UInt8]
    /// `CKA_KEY_TYPE`.
    public var keyType: TokenKey.KeyType
    /// `CKA_VALUE_LEN`.
    public var valueLength: Int?
    /// `CKA_SENSITIVE`: the value can never be read in clear.
    public var sensitive: Bool?
    /// `CKA_EXTRACTABLE`: the key may leave the token wrapped.
    public var extractable: Bool?
    /// `CKA_COPYABLE`: `C_CopyObject` may copy it, with relaxed usages (docs/reference/pkcs11.md §5).
    public var copyable: Bool?
    /// `CKA_MODIFIABLE`: `C_SetAttributeValue` may change its usages.
    public var modifiable: Bool?
    /// `CKA_PRIVATE`: usable only after login (SoftHSM2 encrypts only private objects on disk).
    public var isPrivate: Bool?
    /// `CKA_ALWAYS_SENSITIVE` (true only for keys generated in the token).
    public var alwaysSensitive: Bool?
    /// `CKA_NEVER_EXTRACTABLE` (true only for keys generated in the token).
    public var neverExtractable: Bool?
    /// `CKA_CHECK_VALUE`: the token's key check value (AES: first 3 bytes of ECB(K, 0¹⁶)), when it gives one.
    public var checkValue: [UInt8]?
}
