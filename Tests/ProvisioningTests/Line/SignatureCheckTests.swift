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

/// NTAG 424 DNA (`docs/reference/type4.md` §2.9): AN12196 Table 30 verifies under NXP's secp224r1 key with no trust
/// list, the curve named by each key's length; the repository's P-224 test key only when the job trusts it.
@Test func ntag424SignaturesVerifyOnTheirOwnCurve() throws {
    let nxp = SignatureCheck(policy: .require)
    let uid = try #require(Hex.bytes("04518DFAA96180"))
    let real = try #require(
        Hex.bytes(
            "D1940D17CFEDA4BFF80359AB975F9F6514313E8F90C1D3CAAF5941AD"
                + "744A1CDF9A83F883CAFE0FE95D1939B1B7E47113993324473B785D21"))
    #expect(nxp.trustedKeys.prefix(3) == SignatureCheck.nxpKeys[...])
    #expect(nxp.verify(uid: uid, signature: real))
    var tampered = real
    tampered[55] ^= 1
    #expect(!nxp.verify(uid: uid, signature: tampered))
    let testSigned = try OriginalitySignature.sign(
        uid: uid, privateKey: NTAG424TestSigningKey.privateKey, curve: .secp224r1)
    #expect(!nxp.verify(uid: uid, signature: testSigned), "the test key is refused unless the job names it")
    let trusting = SignatureCheck(policy: .require, extraKeys: [NTAG424TestSigningKey.publicKey])
    #expect(trusting.verify(uid: uid, signature: testSigned))
    let otherCurve = SignatureCheck(policy: .require, extraKeys: [TestSigningKey.publicKey])
    #expect(!otherCurve.verify(uid: uid, signature: testSigned), "the NTAG21x test key does not cover P-224")
    #expect(!trusting.verify(uid: uid, signature: Array(testSigned.prefix(32))), "a 32-byte half is no signature")
}
