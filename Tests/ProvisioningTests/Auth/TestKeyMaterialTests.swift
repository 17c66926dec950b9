import Crypto
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

    @Test func nxpsKeysAndAnOwnKeyAreNoTestMaterial() throws {
        let own = try OriginalitySignature.publicKey(
            forPrivateKey: [UInt8](repeating: 0x5A, count: 28), curve: .secp224r1)
        #expect(TestKeyMaterial.problems(trusted: SignatureCheck.nxpKeys + [own], keys: [:]).isEmpty)
    }
}
