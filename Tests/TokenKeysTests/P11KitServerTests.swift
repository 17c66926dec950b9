import Crypto
import TestSupport
import Testing
import TokenKeys

/// The token in another process (`p11-kit server`, client `p11-kit-client.so`): no AES-CMAC or AES-CBC there, so
/// every CMAC, AN10922 and CBC runs on the ECB-chained route for real; killing the server takes the token away.
@Suite struct P11KitServerTests {
    /// A SoftHSM2 token with the test keys, served by `p11-kit server`, and a session through the client module.
    static func withServedToken(_ body: (TokenSession, P11KitServer) async throws -> Void) async throws {
        let hsm = try SoftHSMToken.make(label: "provision-test")
        defer { hsm.remove() }
        // Import the keys through SoftHSM2 directly first, then serve the token from another process.
        let module = try hsm.withModuleEnvironment { path in try PKCS11Module.load(path: path) }
        let uri = try PKCS11URI("pkcs11:token=provision-test")
        let direct = try await TokenSession.open(
            module: module, uri: uri, pin: Array(hsm.userPIN.utf8), readWrite: true)
        try await TokenFixture.importTestKeys(direct)
        await direct.close()
        let server = try P11KitServer.start(hsm)
        defer { server.stop() }
        let client = try server.withClientEnvironment { path in try PKCS11Module.load(path: path) }
        let session = try await TokenSession.open(module: client, uri: uri, pin: Array(hsm.userPIN.utf8))
        try await body(session, server)
    }

    @Test func ecbChainedRouteThroughTheServerGivesTheVectors() async throws {
        try await Self.withServedToken { session, _ in
            let master = try await session.findKey(label: "master")
            #expect(try await session.cmacRoute(for: master) == .ecbChained)
            #expect(
                try await session.an10922(key: master, input: TokenSessionCryptoTests.longInput)
                    == hexBytes("A8DD63A3B89D54B37CA802473FDA9175"))
            #expect(
                try await session.an10922(key: master, input: TokenSessionCryptoTests.uid)
                    == hexBytes("4FD3364753B8142980E8203C75AD83BE"))
            #expect(
                try await session.aesCMAC(key: master, [0x01] + TokenSessionCryptoTests.uid)
                    == hexBytes("B3179E2D918AC5190815983B054B63AD"))
            let meta = try await session.findKey(label: "meta")
            let zero = [UInt8](repeating: 0, count: 16)
            #expect(
                try await session.aesCBCDecrypt(key: meta, iv: zero, hexBytes("EF963FF7828658A599F3041510671E88"))
                    == hexBytes("C704DE5F1EACC0403D0000DA5CF60941"))
            let brand = try await session.findKey(label: "brand")
            #expect(
                try await session.hmacSHA256(key: brand, hexBytes("04A1B2C3D4E5F6"))
                    == hexBytes("34EBAD1FE03DF3BFBC7A3B6DF1F0AC0A3D12F4799273C0F1A36DBF2B1FB092CF"))
            #expect(try await session.fingerprint(of: master) == (try KeyFingerprint.aes(TokenFixture.master)))
        }
    }

    /// Killing the server's process group (its forked `p11-kit-remote` child included) is a lost token (69).
    @Test func killingTheServerLosesTheToken() async throws {
        try await Self.withServedToken { session, server in
            let brand = try await session.findKey(label: "brand")
            _ = try await session.hmacSHA256(key: brand, [0x04])
            server.stop()
            await #expect {
                try await session.hmacSHA256(key: brand, [0x04])
            } throws: { error in
                guard let error = error as? TokenError else { return false }
                // p11-kit's client reports the dead server as CKR_DEVICE_ERROR.
                return error.isTokenLost && error.exitStatus == 69 && error.message.contains("key brand")
            }
        }
    }
}
