import Crypto
import NDEF
import Testing

/// AES-128 ECB/CBC and CMAC against the NIST vectors, both directions.
@Suite struct AES128Tests {
    static func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }

    @Test func ecbMatchesFIPS197AppendixC1BothWays() throws {
        let key = Self.hex("000102030405060708090A0B0C0D0E0F")
        let plain = Self.hex("00112233445566778899AABBCCDDEEFF")
        let cipher = Self.hex("69C4E0D86A7B0430D8CDB78070B4C55A")
        #expect(try AES128.encryptECB(key: key, plain) == cipher)
        #expect(try AES128.decryptECB(key: key, cipher) == plain)
    }

    @Test func cbcMatchesSP80038AF21BothWays() throws {
        let key = Self.hex("2B7E151628AED2A6ABF7158809CF4F3C")
        let iv = Self.hex("000102030405060708090A0B0C0D0E0F")
        let plain = Self.hex("6BC1BEE22E409F96E93D7E117393172A AE2D8A571E03AC9C9EB76FAC45AF8E51")
        let cipher = Self.hex("7649ABAC8119B246CEE98E9B12E9197D 5086CB9B507219EE95DB113A917678B2")
        #expect(try AES128.encryptCBC(key: key, iv: iv, plain) == cipher)
        #expect(try AES128.decryptCBC(key: key, iv: iv, cipher) == plain)
    }

    @Test(arguments: [
        ("", "BB1D6929E95937287FA37D129B756746"),
        ("6BC1BEE22E409F96E93D7E117393172A", "070A16B46B4D4144F79BDD9DD04A287C"),
        (
            "6BC1BEE22E409F96E93D7E117393172A AE2D8A571E03AC9C9EB76FAC45AF8E51 30C81C46A35CE411",
            "DFA66747DE9AE63030CA32611497C827"
        ),
    ])
    func cmacMatchesSP80038BExamples(message: String, tag: String) throws {
        let key = Self.hex("2B7E151628AED2A6ABF7158809CF4F3C")
        #expect(try AES128.cmac(key: key, Self.hex(message)) == Self.hex(tag))
    }

    @Test func theSecondSubkeyIsSP80038Bs() throws {
        #expect(
            try AES128.cmacSubkey2(key: Self.hex("2B7E151628AED2A6ABF7158809CF4F3C"))
                == Self.hex("F7DDAC306AE266CCF90BC11EE46D513B"))
        // AN12196 §4 (docs/reference/type4.md §3.5): the SDM MAC session key's K2.
        #expect(
            try AES128.cmacSubkey2(key: Self.hex("3FB5F6E3A807A03D5E3570ACE393776F"))
                == Self.hex("38BC31467D83AE6525FBB5A2CFDF1694"))
    }

    /// The algorithms are fetched once and shared: many threads at once, each with its own key, still get the
    /// vectors (a shared context used instead of copied would mix their keys).
    @Test func threadsSharingTheFetchedAlgorithmsGetTheVectors() async throws {
        let cmacKey = Self.hex("2B7E151628AED2A6ABF7158809CF4F3C")
        let ecbKey = Self.hex("000102030405060708090A0B0C0D0E0F")
        let wrong = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<500 {
                        if (task + round) % 2 == 0 {
                            let tag = try? AES128.cmac(key: cmacKey, Self.hex("6BC1BEE22E409F96E93D7E117393172A"))
                            if tag != Self.hex("070A16B46B4D4144F79BDD9DD04A287C") { wrong += 1 }
                        } else {
                            let block = try? AES128.encryptECB(
                                key: ecbKey, Self.hex("00112233445566778899AABBCCDDEEFF"))
                            if block != Self.hex("69C4E0D86A7B0430D8CDB78070B4C55A") { wrong += 1 }
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }

    @Test func wrongLengthsAreRefused() {
        #expect(throws: AES128Error.keyLength(15)) { try AES128.encryptECB(key: [UInt8](repeating: 0, count: 15), []) }
        #expect(throws: AES128Error.blockLength(15)) {
            try AES128.encryptCBC(key: AES128.zeroBlock, [UInt8](repeating: 0, count: 15))
        }
        #expect(throws: AES128Error.keyLength(0)) { try AES128.cmac(key: [], [1]) }
    }
}
