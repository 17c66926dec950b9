import Crypto
import NDEF
import TagEmulator
import Testing

/// The repository's secp224r1 test key: its public half is what libcrypto derives from its private half, and what
/// `TestKeyMaterial` refuses on real readers (`OriginalitySignature.repositoryNTAG424TestPublicKey`).
@Suite struct NTAG424TestSigningKeyTests {
    /// The key as `openssl ec -text` printed it when it was generated.
    static let publicKeyHex =
        "040AA05485E58B498C518AEF8503750C6E03D95FF79750D38EDBB660AE"
        + "B5BC77A5F5261D86125D6DA77AB49AB6FEC9D00F11B6D5502A508B6B"

    @Test func thePublicKeyIsThePrivateKeysPointOnP224() throws {
        #expect(NTAG424TestSigningKey.privateKey.count == 28 && NTAG424TestSigningKey.publicKey.count == 57)
        let derived = try OriginalitySignature.publicKey(
            forPrivateKey: NTAG424TestSigningKey.privateKey, curve: .secp224r1)
        #expect(derived == NTAG424TestSigningKey.publicKey)
        #expect(Hex.compact(derived) == Self.publicKeyHex)
        #expect(Hex.bytes(Self.publicKeyHex) == OriginalitySignature.repositoryNTAG424TestPublicKey)
        #expect(OriginalitySignature.repositoryTestPublicKeys.contains(NTAG424TestSigningKey.publicKey))
    }

    @Test func itsSignaturesFailNXPsKeyAndTheNTAG21xTestKey() throws {
        let uid: [UInt8] = [0x04, 0x51, 0x8D, 0xFA, 0xA9, 0x61, 0x80]
        let signature = try OriginalitySignature.sign(
            uid: uid, privateKey: NTAG424TestSigningKey.privateKey, curve: .secp224r1)
        #expect(OriginalitySignature.verify(uid: uid, signature: signature, publicKey: NTAG424TestSigningKey.publicKey))
        #expect(
            !OriginalitySignature.verify(
                uid: uid, signature: signature, publicKey: OriginalitySignature.ntag424PublicKey))
        #expect(!OriginalitySignature.verify(uid: uid, signature: signature, publicKey: TestSigningKey.publicKey))
    }
}
