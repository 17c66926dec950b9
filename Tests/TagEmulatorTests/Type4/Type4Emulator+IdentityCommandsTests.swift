import Crypto
import NFCTags
import TagEmulator
import Testing

/// The emulated NTAG 424 DNA's Read_Sig `90 3C 00 00 01 00 00` (`docs/reference/type4.md` §2.9): the UID signed with
/// the configured secp224r1 key by libcrypto, or fixed bytes, or `91 0B` when the tag has neither.
@Suite struct Type4EmulatorIdentityCommandsTests {
    static let readSig = "90 3C 00 00 01 00 00"

    /// The signature bytes of a `… 91 00` answer.
    private func signature(_ tag: Type4Emulator) throws -> [UInt8] {
        let answer = try tag.send(Self.readSig)
        #expect(answer.suffix(2) == [0x91, 0x00], "\(answer)")
        return Array(answer.dropLast(2))
    }

    @Test func theDefaultTagSignsItsUIDWithTheTestKeyOnly() throws {
        let tag = try activeType4Tag()
        let signature = try signature(tag)
        #expect(signature.count == 56)
        #expect(
            OriginalitySignature.verify(uid: type4UID, signature: signature, publicKey: NTAG424TestSigningKey.publicKey)
        )
        #expect(
            !OriginalitySignature.verify(
                uid: type4UID, signature: signature, publicKey: OriginalitySignature.ntag424PublicKey))
        #expect(try self.signature(tag) == signature, "the same bytes on every Read_Sig, as a chip answers")
        #expect(tag.originalitySignature == signature)
    }

    @Test func anotherKeySignsAnUntrustedTagAndAChangedKeySignsAgain() throws {
        let key = [UInt8](repeating: 0x5A, count: 28)
        var configuration = Type4EmulatorConfiguration()
        configuration.signingKey = key
        let tag = try activeType4Tag(configuration: configuration)
        let signature = try signature(tag)
        let publicKey = try OriginalitySignature.publicKey(forPrivateKey: key, curve: .secp224r1)
        #expect(OriginalitySignature.verify(uid: type4UID, signature: signature, publicKey: publicKey))
        #expect(
            !OriginalitySignature.verify(
                uid: type4UID, signature: signature, publicKey: NTAG424TestSigningKey.publicKey))
        tag.configuration.signingKey = NTAG424TestSigningKey.privateKey
        #expect(
            OriginalitySignature.verify(
                uid: type4UID, signature: try self.signature(tag), publicKey: NTAG424TestSigningKey.publicKey))
    }

    @Test func fixedBytesWinOverTheKey() throws {
        var configuration = Type4EmulatorConfiguration()
        configuration.originalitySignature = (0..<56).map { UInt8($0) }
        #expect(try signature(try activeType4Tag(configuration: configuration)) == (0..<56).map { UInt8($0) })
    }

    @Test func withoutKeyOrBytesReadSigIsCommandNotFound() throws {
        var configuration = Type4EmulatorConfiguration()
        configuration.signingKey = nil
        let tag = try activeType4Tag(configuration: configuration)
        #expect(try tag.send(Self.readSig) == hex("91 0B"))
        #expect(tag.originalitySignature == nil)
        tag.configuration.signingKey = [UInt8](repeating: 0xFF, count: 28)
        #expect(try tag.send(Self.readSig) == hex("91 0B"), "a key that is no secp224r1 scalar signs nothing")
    }

    @Test func readSigAnswersAtPICCLevelToo() throws {
        let tag = try activeType4Tag()
        _ = try tag.send("90 60 00 00 00")
        _ = try tag.send("90 AF 00 00 00")
        #expect(try tag.send("90 AF 00 00 00").suffix(2) == [0x91, 0x00])
        #expect(try signature(tag).count == 56, "no application selected: Read_Sig still answers")
    }
}
