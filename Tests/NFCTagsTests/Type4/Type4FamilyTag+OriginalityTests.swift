import Crypto
import NDEF
import NFCTags
import TestSupport
import Testing

/// The NTAG 424 DNA's originality signature behind the family seam, scripted APDU by APDU: Read_Sig
/// `90 3C 00 00 01 00 00` after GetVersion, AN12196 Table 30's (UID, signature) pair verified both ways under NXP's
/// secp224r1 key (`docs/reference/type4.md` §2.9), and the chips and states that offer no signature.
@Suite struct Type4FamilyTagOriginalityTests {
    private typealias V = Type4Vectors
    private let finished = Type4ChipModelTests.finished

    /// AN12196 Table 30: the UID and its Read_Sig answer `r ‖ s`.
    static let uid = V.hex("04 51 8D FA A9 61 80")
    static let signature = V.hex(
        "D1940D17CFEDA4BFF80359AB975F9F6514313E8F90C1D3CAAF5941AD"
            + "744A1CDF9A83F883CAFE0FE95D1939B1B7E47113993324473B785D21")
    static let readSig = V.hex("90 3C 00 00 01 00 00")

    /// GetVersion of an NTAG 424 DNA whose part 3 names `uid`.
    static func getVersion(uid: [UInt8]) -> [ScriptedTransceiver.Step] {
        Array(V.getVersion424.prefix(2)) + [
            .exchange(V.hex("90 AF 00 00 00"), uid + V.hex("CD 65 93 5D 40 21 18 91 00"))
        ]
    }

    @Test func readSigIsSentPlainAndItsAnswerVerifiesUnderNXPsKey() throws {
        let script = ScriptedTransceiver(
            Self.getVersion(uid: Self.uid) + [.exchange(Self.readSig, Self.signature + V.hex("91 00"))])
        let tag = try V.identified(script)
        let originality = try #require(tag.originality)
        #expect(originality.canReadSignature)
        let answer = try originality.readSignature()
        #expect(answer == Self.signature)
        #expect(try originality.signedUID() == Self.uid, "GetVersion's UID, no exchange")
        #expect(
            OriginalitySignature.verify(
                uid: try originality.signedUID(), signature: answer, publicKey: OriginalitySignature.ntag424PublicKey))
        #expect(tag.cost.exchanges == 4)
        finished(script)
    }

    /// The vector both ways: the recorded pair verifies, and a flip of any one byte of r, of s or of the UID fails.
    @Test(arguments: [0, 27, 28, 55])
    func aFlippedSignatureByteFails(index: Int) {
        let key = OriginalitySignature.ntag424PublicKey
        #expect(OriginalitySignature.verify(uid: Self.uid, signature: Self.signature, publicKey: key))
        var forged = Self.signature
        forged[index] ^= 0x01
        #expect(!OriginalitySignature.verify(uid: Self.uid, signature: forged, publicKey: key))
        var uid = Self.uid
        uid[index % 7] ^= 0x01
        #expect(!OriginalitySignature.verify(uid: uid, signature: Self.signature, publicKey: key))
    }

    @Test func aRefusalIsAnNTAG424ErrorAndAShortAnswerIsMalformed() throws {
        let script = ScriptedTransceiver(
            Self.getVersion(uid: Self.uid) + [
                .exchange(Self.readSig, V.hex("91 AE")),
                .exchange(Self.readSig, Array(Self.signature.prefix(32)) + V.hex("91 00")),
            ])
        let originality = try #require(try V.identified(script).originality)
        #expect(throws: NTAG424Error(status: 0x91AE, instruction: 0x3C)) { try originality.readSignature() }
        #expect(throws: NTAG424Error(.malformedResponse, instruction: 0x3C)) { try originality.readSignature() }
        finished(script)
    }

    @Test func randomIDSendsNothingAndSaysWhy() throws {
        let script = ScriptedTransceiver(Self.getVersion(uid: [UInt8](repeating: 0, count: 7)))
        let originality = try #require(try V.identified(script).originality)
        #expect(throws: TagError(.unsupportedCommand, "")) { try originality.readSignature() }
        do {
            _ = try originality.signedUID()
            Issue.record("a hidden UID was returned")
        } catch let error as TagError {
            #expect(error.message.contains("Random ID"))
        }
        finished(script)
    }

    @Test func genericDESFireAndUnidentifiedTagsHaveNoSignature() throws {
        #expect(try V.identified(ScriptedTransceiver(V.getVersionRefused)).originality == nil)
        #expect(try V.identified(ScriptedTransceiver(V.getVersionDESFire)).originality == nil)
        let fresh = Type4FamilyTag(Type4Tag(transceiver: ScriptedTransceiver([])))
        #expect(fresh.originality == nil, "before identify()")
    }
}
