internal import CPKCS11
import Support

/// Finding, describing, generating and importing secret keys: every key a line uses stays inside the token.
extension TokenSession {
    /// Which uses a created key gets (`CKA_SIGN`, `CKA_ENCRYPT`, `CKA_DECRYPT`); every other usage is off.
    public struct KeyUses: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// `CKA_SIGN`: CMAC and HMAC.
        public static let sign = KeyUses(rawValue: 1)
        /// `CKA_ENCRYPT`: AES-ECB/CBC, needed for CMAC subkeys and AN10922 of short inputs.
        public static let encrypt = KeyUses(rawValue: 2)
        /// `CKA_DECRYPT`: the SUN meta-read key.
        public static let decrypt = KeyUses(rawValue: 4)
    }

    /// The one secret key named by `label` and/or `id` (the URI's `object` and `id`).
    ///
    /// - Throws: `.objectNotFound` (66) when none matches, `.ambiguous` (64) when several do.
    public func findKey(label: String?, id: [UInt8]? = nil) throws(TokenError) -> TokenKey {
        let name = [label.map { "label \"\($0)\"" }, id.map { "id " + hex($0) }].compactMap { $0 }
            .joined(separator: " and ")
        let handles = try find(label: label, id: id)
        guard let handle = handles.first else {
            throw TokenError(.objectNotFound, "no secret key with \(name) in token \"\(token.label)\"")
        }
        guard handles.count == 1 else {
            throw TokenError(.ambiguous, "\(handles.count) secret keys with \(name) in token \"\(token.label)\"")
        }
        return try key(handle: handle)
    }

    /// The key the URI's `object` and `id` name.
    public func findKey(_ uri: PKCS11URI) throws(TokenError) -> TokenKey {
        guard uri.object != nil || uri.id != nil else {
            throw TokenError(.badURI, "the PKCS #11 URI names no key: add object=… or id=…")
        }
        return try findKey(label: uri.object, id: uri.id)
    }

    /// Every secret key in the token, or those `label` and/or `id` select, in the token's order (`keys list`).
    ///
    /// Private keys are listed only in a logged-in session; an empty token gives an empty list.
    public func secretKeys(label: String? = nil, id: [UInt8]? = nil) throws(TokenError) -> [TokenKey] {
        var keys: [TokenKey] = []
        for handle in try find(label: label, id: id) { keys.append(try key(handle: handle)) }
        return keys
    }

    /// The custody attributes of `key` (`keys list`, and the master's sensitive/extractable check).
    public func attributes(of key: TokenKey) throws(TokenError) -> TokenKeyAttributes {
        func flag(_ type: UInt) throws(TokenError) -> Bool? {
            try value(key.handle, UInt(type)).flatMap { $0.first.map { $0 != 0 } }
        }
        return TokenKeyAttributes(
            label: key.label, id: key.id, keyType: key.keyType, valueLength: key.valueLength,
            sensitive: try flag(CKA_SENSITIVE), extractable: try flag(CKA_EXTRACTABLE),
            copyable: try flag(CKA_COPYABLE), modifiable: try flag(CKA_MODIFIABLE),
            isPrivate: try flag(CKA_PRIVATE), alwaysSensitive: try flag(CKA_ALWAYS_SENSITIVE),
            neverExtractable: try flag(CKA_NEVER_EXTRACTABLE), checkValue: try value(key.handle, UInt(CKA_CHECK_VALUE)))
    }

    /// Generates a random 16-byte AES key inside the token: its value is never seen by the host.
    ///
    /// The key is a private token object, sensitive, not extractable, not copyable, not modifiable, with only
    /// `uses` (docs/reference/pkcs11.md §5). The corresponding C function is `C_GenerateKey(CKM_AES_KEY_GEN)`.
    /// - Throws: `.keyExists` (73) when a secret key with `label` exists already.
    public func generateAES(label: String, id: [UInt8]? = nil, uses: KeyUses = [.sign, .encrypt])
        throws(TokenError) -> TokenKey
    {
        try refuseExisting(label)
        let template =
            Self.template(label: label, id: id, keyType: .aes, uses: uses)
            + [PKCS11Attribute(UInt(CKA_VALUE_LEN), ulong: 16)]
        let handle = try run("C_GenerateKey(CKM_AES_KEY_GEN) for key \(label)") { () throws(PKCS11Status) in
            try functions.generateKey(
                session: session, mechanism: PKCS11Mechanism(UInt(CKM_AES_KEY_GEN)), template: template)
        }
        return try key(handle: handle)
    }

    /// Generates a random 32-byte HMAC-SHA256 key inside the token, a `CKK_GENERIC_SECRET` that may only sign, with
    /// the custody attributes of `generateAES`. The corresponding C function is
    /// `C_GenerateKey(CKM_GENERIC_SECRET_KEY_GEN)`.
    /// - Throws: `.keyExists` (73) when a secret key with `label` exists already.
    public func generateHMAC(label: String, id: [UInt8]? = nil) throws(TokenError) -> TokenKey {
        try refuseExisting(label)
        let template =
            Self.template(label: label, id: id, keyType: .genericSecret, uses: [.sign])
            + [PKCS11Attribute(UInt(CKA_VALUE_LEN), ulong: 32)]
        let handle = try run("C_GenerateKey(CKM_GENERIC_SECRET_KEY_GEN) for key \(label)") {
            () throws(PKCS11Status) in
            try functions.generateKey(
                session: session, mechanism: PKCS11Mechanism(UInt(CKM_GENERIC_SECRET_KEY_GEN)), template: template)
        }
        return try key(handle: handle)
    }

    /// Moves an existing AES key (16 or 32 bytes) into the token, with the attributes of `generateAES`.
    ///
    /// The corresponding C function is `C_CreateObject`. The caller wipes its own copy of `bytes`.
    /// - Throws: `.keyExists` (73) for an existing label; `.keyUnsuitable` (65) for another length.
    public func importAES(label: String, bytes: [UInt8], id: [UInt8]? = nil, uses: KeyUses = [.sign, .encrypt])
        throws(TokenError) -> TokenKey
    {
        guard bytes.count == 16 || bytes.count == 32 else {
            throw TokenError(.keyUnsuitable, "an AES key for token import must be 16 or 32 bytes, got \(bytes.count)")
        }
        return try create(label: label, id: id, keyType: .aes, uses: uses, value: bytes)
    }

    /// Moves an HMAC-SHA256 key into the token as a `CKK_GENERIC_SECRET` that may only sign.
    ///
    /// A key under 32 bytes is stored zero-padded to 32: SoftHSM2 refuses shorter HMAC keys, and HMAC pads any key
    /// shorter than its 64-byte block with zeros (RFC 2104 §2), so the MAC is the same. Keys over 64 bytes are
    /// refused (HMAC would hash them first, which padding would change).
    /// - Throws: `.keyExists` (73); `.keyUnsuitable` (65) for an empty key or one over 64 bytes.
    public func importHMAC(label: String, bytes: [UInt8], id: [UInt8]? = nil) throws(TokenError) -> TokenKey {
        guard (1...64).contains(bytes.count) else {
            throw TokenError(.keyUnsuitable, "an HMAC key for token import must be 1–64 bytes, got \(bytes.count)")
        }
        let padded = bytes + [UInt8](repeating: 0, count: max(0, 32 - bytes.count))
        return try create(label: label, id: id, keyType: .genericSecret, uses: [.sign], value: padded)
    }

    /// A key anyone could read out of the token (not sensitive, extractable), for the tests that prove such a master
    /// is refused; no command creates one.
    package func importUnsafeForTests(label: String, bytes: [UInt8], hmac: Bool) throws(TokenError) -> TokenKey {
        let unsafe = [
            PKCS11Attribute(UInt(CKA_SENSITIVE), bool: false), PKCS11Attribute(UInt(CKA_EXTRACTABLE), bool: true),
        ]
        let value = hmac ? bytes + [UInt8](repeating: 0, count: max(0, 32 - bytes.count)) : bytes
        return try create(
            label: label, id: nil, keyType: hmac ? .genericSecret : .aes, uses: hmac ? [.sign] : [.sign, .encrypt],
            value: value, overriding: unsafe)
    }

    private func create(
        label: String, id: [UInt8]?, keyType: TokenKey.KeyType, uses: KeyUses, value: [UInt8],
        overriding: [PKCS11Attribute] = []
    ) throws(TokenError) -> TokenKey {
        try refuseExisting(label)
        let replaced = Set(overriding.map(\.type))
        let template =
            Self.template(label: label, id: id, keyType: keyType, uses: uses).filter { !replaced.contains($0.type) }
            + overriding + [PKCS11Attribute(UInt(CKA_VALUE), bytes: value)]
        let handle = try run("C_CreateObject for key \(label)") { () throws(PKCS11Status) in
            try functions.createObject(session: session, template: template)
        }
        return try key(handle: handle)
    }

    /// The template of a custody key: private token object, sensitive, not extractable, copyable or modifiable,
    /// `CKA_VERIFY`, `CKA_WRAP`, `CKA_UNWRAP` and `CKA_DERIVE` off, and only `uses` on.
    static func template(label: String, id: [UInt8]?, keyType: TokenKey.KeyType, uses: KeyUses) -> [PKCS11Attribute] {
        var template = [
            PKCS11Attribute(UInt(CKA_CLASS), ulong: UInt(CKO_SECRET_KEY)),
            PKCS11Attribute(UInt(CKA_KEY_TYPE), ulong: keyType.rawValue),
            PKCS11Attribute(UInt(CKA_LABEL), text: label),
            PKCS11Attribute(UInt(CKA_TOKEN), bool: true), PKCS11Attribute(UInt(CKA_PRIVATE), bool: true),
            PKCS11Attribute(UInt(CKA_SENSITIVE), bool: true), PKCS11Attribute(UInt(CKA_EXTRACTABLE), bool: false),
            PKCS11Attribute(UInt(CKA_COPYABLE), bool: false), PKCS11Attribute(UInt(CKA_MODIFIABLE), bool: false),
            PKCS11Attribute(UInt(CKA_SIGN), bool: uses.contains(.sign)),
            PKCS11Attribute(UInt(CKA_ENCRYPT), bool: uses.contains(.encrypt)),
            PKCS11Attribute(UInt(CKA_DECRYPT), bool: uses.contains(.decrypt)),
            PKCS11Attribute(UInt(CKA_VERIFY), bool: false), PKCS11Attribute(UInt(CKA_WRAP), bool: false),
            PKCS11Attribute(UInt(CKA_UNWRAP), bool: false), PKCS11Attribute(UInt(CKA_DERIVE), bool: false),
        ]
        if let id { template.append(PKCS11Attribute(UInt(CKA_ID), bytes: id)) }
        return template
    }

    private func refuseExisting(_ label: String) throws(TokenError) {
        guard try find(label: label, id: nil).isEmpty else {
            throw TokenError(
                .keyExists, "token \"\(token.label)\" already holds a secret key labelled \"\(label)\"; not overwritten"
            )
        }
    }

    private func find(label: String?, id: [UInt8]?) throws(TokenError) -> [UInt] {
        var template = [PKCS11Attribute(UInt(CKA_CLASS), ulong: UInt(CKO_SECRET_KEY))]
        if let label { template.append(PKCS11Attribute(UInt(CKA_LABEL), text: label)) }
        if let id { template.append(PKCS11Attribute(UInt(CKA_ID), bytes: id)) }
        return try run("C_FindObjects in token \"\(token.label)\"") { () throws(PKCS11Status) in
            try functions.findObjects(session: session, template: template)
        }
    }

    /// The key at `handle`, with its label, id, type, length and usages read from the token.
    func key(handle: UInt) throws(TokenError) -> TokenKey {
        func flag(_ type: UInt) throws(TokenError) -> Bool {
            try value(handle, UInt(type))?.first.map { $0 != 0 } ?? false
        }
        let label = String(decoding: try value(handle, UInt(CKA_LABEL)) ?? [], as: UTF8.self)
        let type = try value(handle, UInt(CKA_KEY_TYPE)).flatMap(PKCS11Attribute.ulong) ?? unavailableInformation
        let length = try value(handle, UInt(CKA_VALUE_LEN)).flatMap(PKCS11Attribute.ulong).map { Int($0) }
        return TokenKey(
            handle: handle, label: label, id: try value(handle, UInt(CKA_ID)) ?? [], keyType: .init(rawValue: type),
            valueLength: length, canSign: try flag(CKA_SIGN), canEncrypt: try flag(CKA_ENCRYPT),
            canDecrypt: try flag(CKA_DECRYPT))
    }

    /// One attribute's bytes (`nil`: sensitive or absent). Never asked for `CKA_VALUE`.
    func value(_ handle: UInt, _ type: UInt) throws(TokenError) -> [UInt8]? {
        try run("C_GetAttributeValue in token \"\(token.label)\"") { () throws(PKCS11Status) in
            try functions.attribute(session: session, object: handle, type: type)
        }
    }

    func hex(_ bytes: [UInt8]) -> String { HexEncoding.encode(bytes) }
}
