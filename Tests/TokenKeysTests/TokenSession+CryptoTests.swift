import Crypto
import Testing
import TokenKeys

/// Derivations inside a real SoftHSM2 token against the public vectors and libcrypto on the host.
@Suite struct TokenSessionCryptoTests {
    /// NXP AN10922 §2.2.1: K, M = UID ‖ AID ‖ system identifier.
    static let longInput = hexBytes("04782E21801D803042F54E585020416275")
    static let uid = hexBytes("04782E21801D80")

    @Test func an10922LongVectorInTheToken() async throws {
        try await TokenFixture.with { token in
            let master = try await token.session.findKey(label: "master")
            #expect(try await token.session.cmacRoute(for: master) == .tokenCMAC)
            let key = try await token.session.an10922(key: master, input: Self.longInput)
            #expect(key == hexBytes("A8DD63A3B89D54B37CA802473FDA9175"))
        }
    }

    /// A 7-byte UID alone: |01 ‖ M| = 8 ≤ 16, so AN10922's 32-byte padding applies, and a plain CMAC differs.
    @Test func an10922ShortInputIsPaddedToTwoBlocksNotAPlainCMAC() async throws {
        try await TokenFixture.with { token in
            let master = try await token.session.findKey(label: "master")
            let key = try await token.session.an10922(key: master, input: Self.uid)
            #expect(key == hexBytes("4FD3364753B8142980E8203C75AD83BE"))
            let plain = try await token.session.aesCMAC(key: master, [0x01] + Self.uid)
            #expect(plain == hexBytes("B3179E2D918AC5190815983B054B63AD"))
            #expect(key != plain)
        }
    }

    /// Every input length 1–31, on both routes, equals the host's libcrypto AN10922 (`KeyDiversification`).
    @Test(arguments: [TokenSession.CMACRoute.tokenCMAC, .ecbChained])
    func an10922EveryLengthMatchesTheHost(route: TokenSession.CMACRoute) async throws {
        let mechanisms = route == .ecbChained ? ["CKM_AES_ECB", "CKM_AES_CBC", "CKM_SHA256_HMAC"] : nil
        try await TokenFixture.with(mechanisms: mechanisms) { token in
            let master = try await token.session.findKey(label: "master")
            #expect(try await token.session.cmacRoute(for: master) == route)
            for count in 1...31 {
                let input = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 4) }
                let expected = try KeyDiversification.an10922(masterKey: TokenFixture.master, input: input)
                #expect(try await token.session.an10922(key: master, input: input) == expected, "|M| = \(count)")
            }
        }
    }

    /// RFC 4493 §4 examples (K = 2B7E…4F3C), empty message included, on both routes forced per call.
    @Test(arguments: [TokenSession.CMACRoute.tokenCMAC, .ecbChained])
    func cmacRFC4493Vectors(route: TokenSession.CMACRoute) async throws {
        try await TokenFixture.with(importKeys: false) { token in
            let key = try await token.session.importAES(
                label: "rfc4493", bytes: hexBytes("2B7E151628AED2A6ABF7158809CF4F3C"))
            let message = hexBytes(
                "6BC1BEE22E409F96E93D7E117393172AAE2D8A571E03AC9C9EB76FAC45AF8E51"
                    + "30C81C46A35CE411E5FBC1191A0A52EFF69F2445DF4F9B17AD2B417BE66C3710")
            let vectors: [(Int, String)] = [
                (0, "BB1D6929E95937287FA37D129B756746"), (16, "070A16B46B4D4144F79BDD9DD04A287C"),
                (40, "DFA66747DE9AE63030CA32611497C827"), (64, "51F0BEBF7E3B9D92FC49741779363CFE"),
            ]
            for (count, mac) in vectors {
                let result = try await token.session.aesCMAC(key: key, Array(message.prefix(count)), route: route)
                #expect(result == hexBytes(mac), "|M| = \(count)")
            }
        }
    }

    /// A token allowing only ECB, CBC and HMAC (SoftHSM2's `slots.mechanisms`) is routed through ECB by itself.
    @Test func withoutTokenCMACTheAutomaticRouteIsECBChained() async throws {
        try await TokenFixture.with(mechanisms: ["CKM_AES_ECB", "CKM_AES_CBC", "CKM_SHA256_HMAC"]) { token in
            let master = try await token.session.findKey(label: "master")
            #expect(try await token.session.cmacRoute(for: master) == .ecbChained)
            #expect(
                try await token.session.an10922(key: master, input: Self.longInput)
                    == hexBytes("A8DD63A3B89D54B37CA802473FDA9175"))
            #expect(
                try await token.session.aesCMAC(key: master, [0x01] + Self.uid)
                    == hexBytes("B3179E2D918AC5190815983B054B63AD"))
        }
    }

    @Test func hmacVectorsIncludingShortKeysStoredPadded() async throws {
        try await TokenFixture.with { token in
            let uid = hexBytes("04A1B2C3D4E5F6")
            let brand = try await token.session.findKey(label: "brand")
            #expect(
                try await token.session.hmacSHA256(key: brand, uid)
                    == hexBytes("34EBAD1FE03DF3BFBC7A3B6DF1F0AC0A3D12F4799273C0F1A36DBF2B1FB092CF"))
            let brand16 = try await token.session.findKey(label: "brand16")
            #expect(brand16.valueLength == 32)
            #expect(
                try await token.session.hmacSHA256(key: brand16, uid)
                    == Digest.hmacSHA256(key: TokenFixture.brand16, message: uid))
            // RFC 4231 test case 2: a 4-byte key ("Jefe"), stored as 32 bytes.
            let jefe = try await token.session.importHMAC(label: "jefe", bytes: Array("Jefe".utf8))
            #expect(
                try await token.session.hmacSHA256(key: jefe, Array("what do ya want for nothing?".utf8))
                    == hexBytes("5BDCC146BF60754E6A042426089575C75A003F089D2739839DEC58B964EC3843"))
        }
    }

    /// The SUN meta-read (AN12196 vector, key 00×16): CBC decryption in the token, and its ECB-chained twin.
    @Test func sunMetaReadDecryptsInTheToken() async throws {
        try await TokenFixture.with { token in
            let meta = try await token.session.findKey(label: "meta")
            let zero = [UInt8](repeating: 0, count: 16)
            let plain = try await token.session.aesCBCDecrypt(
                key: meta, iv: zero, hexBytes("EF963FF7828658A599F3041510671E88"))
            #expect(plain == hexBytes("C704DE5F1EACC0403D0000DA5CF60941"))
        }
    }

    @Test func cbcEncryptMatchesTheHost() async throws {
        try await TokenFixture.with { token in
            let master = try await token.session.findKey(label: "master")
            let iv = Array(UInt8(16)..<UInt8(32))
            let data = Array(UInt8(0)..<UInt8(48))
            #expect(
                try await token.session.aesCBCEncrypt(key: master, iv: iv, data)
                    == AES128.encryptCBC(key: TokenFixture.master, iv: iv, data))
        }
    }

    /// Issue 42 item 4: a file key and the same key in the token give the same fingerprint (AES and HMAC).
    @Test func fingerprintsMatchTheHostTwin() async throws {
        try await TokenFixture.with { token in
            let master = try await token.session.findKey(label: "master")
            let fingerprint = try await token.session.fingerprint(of: master)
            #expect(fingerprint == (try KeyFingerprint.aes(TokenFixture.master)))
            #expect(fingerprint.hasPrefix("v1:") && fingerprint.count == 19)
            let brand16 = try await token.session.findKey(label: "brand16")
            #expect(try await token.session.fingerprint(of: brand16) == KeyFingerprint.hmac(TokenFixture.brand16))
            #expect(KeyFingerprint.hmac(TokenFixture.brand16) != KeyFingerprint.hmac(TokenFixture.brand))
        }
    }
}
