import Crypto
import NDEF
import Testing

/// Real (UID, READ_SIG) pairs from `docs/reference/type2.md` §3.8.
private let realVectors: [(uid: String, signature: String)] = [
    ("045869D29C3980", "1FA9FE479435E4B60280F7A2B44293DF9127471B3251BC8942F0941AD71A1755"),
    ("04BE7982355B80", "F2DE84A291222F6A04F663D48104D1F523DA00B9A951CC6126CE1BAA8A9E6A50"),
]

/// A throwaway secp128r1 key made for these tests with `openssl ecparam -name secp128r1 -genkey`.
private let privateKey: [UInt8] = [
    0xE8, 0xE4, 0xE6, 0x63, 0xB6, 0x58, 0x14, 0x3B, 0xD7, 0x0A, 0x1B, 0xC1, 0x50, 0x48, 0x42, 0x7E,
]
private let publicKeyHex = "0485E811A76DEECCB04A858C9B936334203F7B880DEACD9C71633B87FCAE3CAAD7"

@Test(arguments: 0..<2)
func realNTAGSignaturesVerifyAgainstNXPKey(index: Int) throws {
    let uid = try #require(Hex.bytes(realVectors[index].uid))
    let signature = try #require(Hex.bytes(realVectors[index].signature))
    #expect(
        OriginalitySignature.verify(uid: uid, signature: signature, publicKey: OriginalitySignature.ntag21xPublicKey))
    #expect(
        !OriginalitySignature.verify(
            uid: uid, signature: signature, publicKey: OriginalitySignature.ultralightEV1PublicKey))
}

@Test func realSignatureFailsForAnotherUIDOrAFlippedBit() throws {
    let uid = try #require(Hex.bytes(realVectors[0].uid))
    var signature = try #require(Hex.bytes(realVectors[0].signature))
    let otherUID = try #require(Hex.bytes(realVectors[1].uid))
    #expect(
        !OriginalitySignature.verify(
            uid: otherUID, signature: signature, publicKey: OriginalitySignature.ntag21xPublicKey))
    signature[31] ^= 0x01
    #expect(
        !OriginalitySignature.verify(uid: uid, signature: signature, publicKey: OriginalitySignature.ntag21xPublicKey))
}

@Test func publicKeyForPrivateKeyMatchesOpenSSLCommandLine() throws {
    #expect(Hex.compact(try OriginalitySignature.publicKey(forPrivateKey: privateKey)) == publicKeyHex)
}

@Test func signThenVerifyRoundTrips() throws {
    let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    let publicKey = try #require(Hex.bytes(publicKeyHex))
    let signature = try OriginalitySignature.sign(uid: uid, privateKey: privateKey)
    #expect(signature.count == 32)
    #expect(OriginalitySignature.verify(uid: uid, signature: signature, publicKey: publicKey))
    #expect(
        !OriginalitySignature.verify(uid: uid, signature: signature, publicKey: OriginalitySignature.ntag21xPublicKey))
    var other = uid
    other[6] ^= 0xFF
    #expect(!OriginalitySignature.verify(uid: other, signature: signature, publicKey: publicKey))
}

@Test func malformedInputsAreRejected() throws {
    let uid: [UInt8] = [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]
    #expect(throws: OriginalitySignatureError.invalidPrivateKey) {
        try OriginalitySignature.sign(uid: uid, privateKey: [UInt8](repeating: 0, count: 16))
    }
    #expect(throws: OriginalitySignatureError.invalidPrivateKey) {
        try OriginalitySignature.sign(uid: uid, privateKey: [UInt8](repeating: 0xFF, count: 16))
    }
    #expect(throws: OriginalitySignatureError.invalidUID) {
        try OriginalitySignature.sign(uid: [], privateKey: privateKey)
    }
    let signature = try OriginalitySignature.sign(uid: uid, privateKey: privateKey)
    #expect(
        !OriginalitySignature.verify(
            uid: uid, signature: Array(signature.prefix(31)), publicKey: OriginalitySignature.ntag21xPublicKey))
    #expect(
        !OriginalitySignature.verify(
            uid: uid, signature: signature, publicKey: [0x04] + [UInt8](repeating: 1, count: 32)))
}

/// NTAG 424 DNA's Read_Sig: ECDSA secp224r1 over the raw 7-byte UID (`docs/reference/type4.md` §2.9, AN12196 Table 30).
@Suite struct OriginalitySignature224Tests {
    static let uid = Hex.bytes("04518DFAA96180") ?? []
    static let signature =
        Hex.bytes(
            "D1940D17CFEDA4BFF80359AB975F9F6514313E8F90C1D3CAAF5941AD"
                + "744A1CDF9A83F883CAFE0FE95D1939B1B7E47113993324473B785D21") ?? []

    @Test func nxpsSignatureOfAnNTAG424Verifies() {
        #expect(
            OriginalitySignature.verify(
                uid: Self.uid, signature: Self.signature, publicKey: OriginalitySignature.ntag424PublicKey,
                curve: .secp224r1))
    }

    @Test func anyChangedByteOrTheWrongCurveFails() {
        var forged = Self.signature
        forged[30] ^= 0x01
        let key = OriginalitySignature.ntag424PublicKey
        #expect(!OriginalitySignature.verify(uid: Self.uid, signature: forged, publicKey: key, curve: .secp224r1))
        var uid = Self.uid
        uid[6] ^= 0x01
        #expect(!OriginalitySignature.verify(uid: uid, signature: Self.signature, publicKey: key, curve: .secp224r1))
        #expect(
            !OriginalitySignature.verify(uid: Self.uid, signature: Self.signature, publicKey: key, curve: .secp128r1))
    }

    @Test func theKeysLengthNamesTheCurveWhenNoneIsGiven() {
        let key = OriginalitySignature.ntag424PublicKey
        #expect(OriginalitySignature.verify(uid: Self.uid, signature: Self.signature, publicKey: key))
        var forged = Self.signature
        forged[0] ^= 0x80
        #expect(!OriginalitySignature.verify(uid: Self.uid, signature: forged, publicKey: key))
        // A 56-byte signature under a 33-byte key, and a key of neither length, never verify.
        #expect(
            !OriginalitySignature.verify(
                uid: Self.uid, signature: Self.signature, publicKey: OriginalitySignature.ntag21xPublicKey))
        #expect(
            !OriginalitySignature.verify(uid: Self.uid, signature: Self.signature, publicKey: Array(key.prefix(29))))
    }

    /// Public-key length ↔ curve, both ways; every other length names none.
    @Test(arguments: [(33, OriginalityCurve.secp128r1), (57, .secp224r1)])
    func publicKeyLengthAndCurveMapBothWays(length: Int, curve: OriginalityCurve) {
        #expect(OriginalityCurve(publicKeyBytes: length) == curve)
        #expect(curve.publicKeyBytes == length)
        #expect(curve.signatureBytes == (length - 1))
    }

    @Test(arguments: [0, 1, 29, 32, 56, 65])
    func otherLengthsNameNoCurve(length: Int) {
        #expect(OriginalityCurve(publicKeyBytes: length) == nil)
    }

    @Test func aTestKeySignsAndVerifiesOnP224() throws {
        let privateKey = [UInt8](repeating: 0x5A, count: 28)
        let publicKey = try OriginalitySignature.publicKey(forPrivateKey: privateKey, curve: .secp224r1)
        #expect(publicKey.count == 57 && publicKey[0] == 0x04)
        let signature = try OriginalitySignature.sign(uid: Self.uid, privateKey: privateKey, curve: .secp224r1)
        #expect(signature.count == 56)
        #expect(
            OriginalitySignature.verify(uid: Self.uid, signature: signature, publicKey: publicKey, curve: .secp224r1))
        #expect(throws: OriginalitySignatureError.invalidPrivateKey) {
            try OriginalitySignature.sign(
                uid: Self.uid, privateKey: [UInt8](repeating: 0xFF, count: 28), curve: .secp224r1)
        }
    }
}
