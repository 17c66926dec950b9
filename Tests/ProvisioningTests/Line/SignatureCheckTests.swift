import Crypto
import NDEF
import Provisioning
import TagEmulator
import Testing

@Test func nxpVectorsVerifyByDefaultAndTheTestKeyOnlyWhenTrusted() throws {
    let nxp = SignatureCheck(policy: .require)
    let uid = try #require(Hex.bytes("045869D29C3980"))
    let real = try #require(Hex.bytes("1FA9FE479435E4B60280F7A2B44293DF9127471B3251BC8942F0941AD71A1755"))
    #expect(nxp.verify(uid: uid, signature: real))
    var tampered = real
    tampered[31] ^= 1
    #expect(!nxp.verify(uid: uid, signature: tampered))
    let testSigned = try OriginalitySignature.sign(uid: uid, privateKey: TestSigningKey.privateKey)
    #expect(!nxp.verify(uid: uid, signature: testSigned))
    let trusting = SignatureCheck(policy: .record, extraKeys: [TestSigningKey.publicKey])
    #expect(trusting.verify(uid: uid, signature: testSigned))
    #expect(!trusting.verify(uid: [0x04, 1, 2, 3, 4, 5, 6], signature: testSigned))
}

@Test func offBuildsNoCheck() {
    #expect(SignatureCheck(ManifestSecurity(signature: .off)) == nil)
    #expect(SignatureCheck(ManifestSecurity(signature: .record))?.policy == .record)
}
