import Crypto
import NDEF
import Testing

@Test func sha256OfABCMatchesFIPS180Vector() {
    #expect(
        Hex.compact(Digest.sha256(Array("abc".utf8)))
            == "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD")
}

@Test func hmacSHA256MatchesRFC4231Case2() {
    let mac = Digest.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
    #expect(Hex.compact(mac) == "5BDCC146BF60754E6A042426089575C75A003F089D2739839DEC58B964EC3843")
}
