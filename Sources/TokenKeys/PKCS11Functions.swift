/// The PKCS #11 calls the token layer makes, as a protocol, so a test can put a fake behind the session.
///
/// The one seam of docs/style.md §4.1: `PKCS11FunctionList` implements it over a module's `CK_FUNCTION_LIST`
/// (the only code touching PKCS #11 pointers); a test's fake returns what a real token cannot be made to
/// return (`CKR_DEVICE_REMOVED`). Each method pairs the `C_*Init` call with its one-part operation, so an
/// operation is never left active on the session. Handles and types are the `CK_ULONG` values as `UInt`.
public protocol PKCS11Functions: Sendable {
    /// The slots with a token present. The corresponding C function is `C_GetSlotList` (tokenPresent TRUE).
    func slotList() throws(PKCS11Status) -> [UInt]
    /// The token in `slot`. The corresponding C function is `C_GetTokenInfo`.
    func tokenInfo(slot: UInt) throws(PKCS11Status) -> PKCS11TokenInfo
    /// The mechanisms `slot` offers. The corresponding C function is `C_GetMechanismList`.
    func mechanismList(slot: UInt) throws(PKCS11Status) -> [UInt]
    /// What `slot` offers for `mechanism`. The corresponding C function is `C_GetMechanismInfo`.
    func mechanismInfo(slot: UInt, mechanism: UInt) throws(PKCS11Status) -> PKCS11MechanismInfo
    /// A serial session on `slot`, read-write if asked. The corresponding C function is `C_OpenSession`.
    func openSession(slot: UInt, readWrite: Bool) throws(PKCS11Status) -> UInt
    /// Closes `session`. The corresponding C function is `C_CloseSession`.
    func closeSession(_ session: UInt) throws(PKCS11Status)
    /// Logs the user in with `pin`. The corresponding C function is `C_Login` (`CKU_USER`).
    func login(session: UInt, pin: [UInt8]) throws(PKCS11Status)
    /// The objects matching `template`. The corresponding C functions are `C_FindObjectsInit`, `C_FindObjects`
    /// and `C_FindObjectsFinal`.
    func findObjects(session: UInt, template: [PKCS11Attribute]) throws(PKCS11Status) -> [UInt]
    /// The value of attribute `type` of `object`, `nil` when it is sensitive or the object has none.
    /// The corresponding C function is `C_GetAttributeValue` (length first, then value).
    func attribute(session: UInt, object: UInt, type: UInt) throws(PKCS11Status) -> [UInt8]?
    /// Encrypts `data` in one part. The corresponding C functions are `C_EncryptInit` and `C_Encrypt`.
    func encrypt(session: UInt, mechanism: PKCS11Mechanism, key: UInt, data: [UInt8]) throws(PKCS11Status) -> [UInt8]
    /// Decrypts `data` in one part. The corresponding C functions are `C_DecryptInit` and `C_Decrypt`.
    func decrypt(session: UInt, mechanism: PKCS11Mechanism, key: UInt, data: [UInt8]) throws(PKCS11Status) -> [UInt8]
    /// Signs (MACs) `data` in one part. The corresponding C functions are `C_SignInit` and `C_Sign`.
    func sign(session: UInt, mechanism: PKCS11Mechanism, key: UInt, data: [UInt8]) throws(PKCS11Status) -> [UInt8]
    /// Creates an object from `template`. The corresponding C function is `C_CreateObject`.
    func createObject(session: UInt, template: [PKCS11Attribute]) throws(PKCS11Status) -> UInt
    /// Generates a secret key inside the token. The corresponding C function is `C_GenerateKey`.
    func generateKey(
        session: UInt, mechanism: PKCS11Mechanism, template: [PKCS11Attribute]
    ) throws(PKCS11Status) -> UInt
}

/// What `C_GetTokenInfo` says about a token, its blank-padded fields trimmed.
public struct PKCS11TokenInfo: Sendable, Hashable {
    /// `label` (32 bytes, blank-padded, not NUL-terminated: PKCS #11 v2.40 base §3.2).
    public var label: String
    /// `manufacturerID`.
    public var manufacturer: String
    /// `model`.
    public var model: String
    /// `serialNumber`.
    public var serial: String

    /// Creates token information (tests build fakes with it).
    public init(label: String, manufacturer: String = "", model: String = "", serial: String = "") {
        self.label = label
        self.manufacturer = manufacturer
        self.model = model
        self.serial = serial
    }
}

/// What `C_GetMechanismInfo` says: the key size range (bytes for AES and HMAC keys) and the `CKF_*` flags.
public struct PKCS11MechanismInfo: Sendable, Hashable {
    /// `ulMinKeySize`.
    public var minKeySize: UInt
    /// `ulMaxKeySize`.
    public var maxKeySize: UInt
    /// `flags` (`CKF_ENCRYPT`, `CKF_SIGN`, …).
    public var flags: UInt

    /// Creates mechanism information.
    public init(minKeySize: UInt, maxKeySize: UInt, flags: UInt) {
        self.minKeySize = minKeySize
        self.maxKeySize = maxKeySize
        self.flags = flags
    }
}

/// A mechanism and its parameter bytes (the IV for `CKM_AES_CBC`), as `CK_MECHANISM` carries them.
public struct PKCS11Mechanism: Sendable, Hashable {
    /// The `CKM_*` value.
    public var type: UInt
    /// The parameter (`pParameter`/`ulParameterLen`); empty for none.
    public var parameter: [UInt8]

    /// Creates a mechanism.
    public init(_ type: UInt, parameter: [UInt8] = []) {
        self.type = type
        self.parameter = parameter
    }
}

/// One `CK_ATTRIBUTE` of a template: its type and its value's bytes as the token reads them.
///
/// Not `CustomStringConvertible` on purpose: a template may hold `CKA_VALUE`, and no description may print it.
public struct PKCS11Attribute: Sendable {
    /// The `CKA_*` value.
    public var type: UInt
    /// The value bytes (`CK_BBOOL` one byte, `CK_ULONG` native-endian, text UTF-8).
    public var value: [UInt8]

    /// An attribute with raw value bytes.
    public init(_ type: UInt, bytes: [UInt8]) {
        self.type = type
        self.value = bytes
    }

    /// A `CK_BBOOL` attribute.
    public init(_ type: UInt, bool: Bool) { self.init(type, bytes: [bool ? 1 : 0]) }

    /// A `CK_ULONG` attribute (class, key type, length).
    public init(_ type: UInt, ulong: UInt) { self.init(type, bytes: withUnsafeBytes(of: ulong) { Array($0) }) }

    /// A UTF-8 text attribute (`CKA_LABEL`).
    public init(_ type: UInt, text: String) { self.init(type, bytes: Array(text.utf8)) }

    /// `bytes` read as a `CK_ULONG`, or `nil` when they are not one.
    static func ulong(_ bytes: [UInt8]) -> UInt? {
        guard bytes.count == MemoryLayout<UInt>.size else { return nil }
        return bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt.self) }
    }
}
