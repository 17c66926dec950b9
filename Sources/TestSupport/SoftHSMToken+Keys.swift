import Foundation
import TokenKeys

/// Test keys put into a `SoftHSMToken` from the test process, and the URIs a `provision` process names them by.
extension SoftHSMToken {
    /// One key to import: an AES key (CMAC, ECB/CBC encrypt) or an HMAC key; `extractable` makes a deliberately
    /// unsafe one (sensitive off, extractable on) for the refusal tests.
    public struct TestKey: Sendable {
        public var label: String
        public var bytes: [UInt8]
        public var hmac: Bool
        public var extractable: Bool
        /// `CKA_ID`, for URIs that name the key by `id=`.
        public var id: [UInt8]?

        public init(
            label: String, bytes: [UInt8], hmac: Bool = false, extractable: Bool = false, id: [UInt8]? = nil
        ) {
            self.label = label
            self.bytes = bytes
            self.hmac = hmac
            self.extractable = extractable
            self.id = id
        }
    }

    /// The file holding the user PIN (mode 0600), written on first use: what `pin-source=file:` names.
    public var pinFile: String {
        let path = directory + "/user.pin"
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(
                atPath: path, contents: Data((userPIN + "\n").utf8), attributes: [.posixPermissions: 0o600])
        }
        return path
    }

    /// The URI of key `object` in this token, with this token's module and PIN file.
    public func uri(object: String) -> String {
        "pkcs11:token=\(label);object=\(object);type=secret-key?module-path=\(modulePath)&pin-source=file:\(pinFile)"
    }

    /// The environment a `provision` process needs to use this token (its SoftHSM2 configuration).
    public var environment: [String: String] { ["SOFTHSM2_CONF": configPath] }

    /// Imports `keys` through this process's copy of the module (a read-write session, closed afterwards); the keys
    /// are private, sensitive and non-extractable unless a key says `extractable`.
    public func importKeys(_ keys: [TestKey]) async throws {
        let module = try withModuleEnvironment { path in try PKCS11Module.load(path: path) }
        let session = try await TokenSession.open(
            module: module, uri: try PKCS11URI("pkcs11:token=\(label)"), pin: Array(userPIN.utf8), readWrite: true)
        for key in keys {
            if key.extractable {
                _ = try await session.importUnsafeForTests(label: key.label, bytes: key.bytes, hmac: key.hmac)
            } else if key.hmac {
                _ = try await session.importHMAC(label: key.label, bytes: key.bytes, id: key.id)
            } else {
                _ = try await session.importAES(label: key.label, bytes: key.bytes, id: key.id)
            }
        }
        await session.close()
    }
}
