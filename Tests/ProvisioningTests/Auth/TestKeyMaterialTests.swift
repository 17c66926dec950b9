import Crypto
import NFCTags
import Provisioning
import TagEmulator
import Testing

/// Public trust material a job may not use on a real reader without `--allow-test-keys`: both repository test
/// signing keys (NTAG21x secp128r1, NTAG 424 DNA secp224r1) and the documented sample key.
@Suite struct TestKeyMaterialTests {
    @Test func eachTestSigningKeyIsNamedOnItsOwnLine() {
        let both = TestKeyMaterial.problems(
            trusted: [TestSigningKey.publicKey, NTAG424TestSigningKey.publicKey], keys: [:])
        #expect(both.count == 2)
        #expect(both[0].contains("repository's test signing key"))
        #expect(both[1].contains("repository's NTAG 424 DNA test signing key"))
        let only424 = TestKeyMaterial.problems(trusted: [NTAG424TestSigningKey.publicKey], keys: [:])
        #expect(only424.count == 1 && only424[0].contains("NTAG 424 DNA"))
    }

    /// Issue 40 item 11: both README sample keys and the NTAG 424 DNA factory key, named by key id only.
    @Test func theDocumentedSampleKeysAndTheFactoryKeyAreNamedByTheirIDs() {
        let keys = [
            "brand": SecretKey(id: "brand", bytes: Array(0x00...0x1F)),
            "sun": SecretKey(id: "sun", bytes: Array(0x00...0x0F)),
            "zero": SecretKey(id: "zero", bytes: [UInt8](repeating: 0, count: 16)),
            "own": SecretKey(id: "own", bytes: [UInt8](repeating: 0x5A, count: 16)),
        ]
        let found = TestKeyMaterial.problems(trusted: [], keys: keys)
        #expect(found.count == 3, "\(found)")
        #expect(found.contains { $0.hasPrefix("key 'brand' is the documented sample key (PROVISION_SAMPLE_BRAND_KEY") })
        #expect(found.contains { $0.hasPrefix("key 'sun' is the documented sample SUN master key") })
        #expect(found.contains { $0.hasPrefix("key 'zero' is the all-zero NTAG 424 DNA factory key") })
        #expect(!found.contains { $0.contains("'own'") || $0.contains("000102") })
    }

    @Test func nxpsKeysAndAnOwnKeyAreNoTestMaterial() throws {
        let own = try OriginalitySignature.publicKey(
            forPrivateKey: [UInt8](repeating: 0x5A, count: 28), curve: .secp224r1)
        #expect(TestKeyMaterial.problems(trusted: SignatureCheck.nxpKeys + [own], keys: [:]).isEmpty)
    }
}
