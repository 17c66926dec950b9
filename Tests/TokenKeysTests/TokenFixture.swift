import NDEF
import TestSupport
import Testing
import TokenKeys

/// A private SoftHSM2 token with a logged-in session and the known test keys imported through the layer itself.
///
/// Keys (test keys only, from the public vectors the tests check): the AN10922 master
/// `00112233445566778899AABBCCDDEEFF` (label `master`), the all-zero SUN meta-read key (label `meta`, decrypt
/// only), the NTAG21x brand key `000102…1F` (label `brand`, HMAC) and a 16-byte brand key `000102…0F`
/// (label `brand16`, stored zero-padded). Each test gets its own token (see `SoftHSMToken`), removed by `close`.
struct TokenFixture {
    let hsm: SoftHSMToken
    let module: PKCS11Module
    let session: TokenSession

    static let master = hexBytes("00112233445566778899AABBCCDDEEFF")
    static let brand = Array(UInt8(0)...UInt8(31))
    static let brand16 = Array(UInt8(0)...UInt8(15))

    /// A token (restricted to `mechanisms` when given), its module and a logged-in read-write session.
    static func make(mechanisms: [String]? = nil, importKeys: Bool = true) async throws -> TokenFixture {
        let hsm = try SoftHSMToken.make(label: "provision-test", restrictMechanisms: mechanisms)
        let module = try hsm.withModuleEnvironment { path in try PKCS11Module.load(path: path) }
        let session = try await TokenSession.open(
            module: module, uri: try PKCS11URI("pkcs11:token=provision-test"), pin: Array(hsm.userPIN.utf8),
            readWrite: true)
        if importKeys { try await importTestKeys(session) }
        return TokenFixture(hsm: hsm, module: module, session: session)
    }

    /// Imports the test keys as sensitive, non-extractable private token objects.
    static func importTestKeys(_ session: TokenSession) async throws {
        _ = try await session.importAES(label: "master", bytes: master, id: [0x01])
        _ = try await session.importAES(label: "meta", bytes: [UInt8](repeating: 0, count: 16), uses: [.decrypt])
        _ = try await session.importHMAC(label: "brand", bytes: brand)
        _ = try await session.importHMAC(label: "brand16", bytes: brand16)
    }

    /// Runs `body` with a new fixture and closes it afterwards, also when `body` throws.
    static func with<T>(
        mechanisms: [String]? = nil, importKeys: Bool = true, _ body: (TokenFixture) async throws -> T
    ) async throws -> T {
        let fixture = try await make(mechanisms: mechanisms, importKeys: importKeys)
        do {
            let result = try await body(fixture)
            await fixture.close()
            return result
        } catch {
            await fixture.close()
            throw error
        }
    }

    /// Closes the session and removes the token's folder.
    func close() async {
        await session.close()
        hsm.remove()
    }
}

/// Bytes from the hex text of a test vector (`Hex.bytes`; a malformed vector gives no bytes and fails its test).
func hexBytes(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }
