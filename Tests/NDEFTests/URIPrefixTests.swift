import NDEF
import Testing

@Suite struct URIPrefixTests {
    @Test func tableHasThirtySixCodes() {
        #expect(URIPrefix.all.count == 0x24)
        #expect(URIPrefix.all[0x04] == "https://")
        #expect(URIPrefix.all[0x23] == "urn:nfc:")
    }

    @Test(arguments: [
        ("https://www.example.com", UInt8(0x02), "example.com"),
        ("urn:epc:id:sgtin:1", 0x1E, "sgtin:1"),
        ("urn:epc:x", 0x22, "x"),
        ("urn:x", 0x13, "x"),
        ("ftp://anonymous:anonymous@h", 0x07, "h"),
        ("ftp://ftp.h", 0x08, "h"),
        ("ftp://h", 0x0D, "h"),
        ("sips:x", 0x16, "x"),
        ("HTTPS://A", 0x00, "HTTPS://A"),
        ("geo:52,13", 0x00, "geo:52,13"),
    ])
    func encoderPicksTheLongestPrefix(uri: String, code: UInt8, rest: String) throws {
        #expect(URIPrefix.split(uri) == (code, rest))
        #expect(URIPrefix.payload(for: uri) == [code] + Array(rest.utf8))
        #expect(try URIPrefix.uri(fromPayload: [code] + Array(rest.utf8)) == uri)
    }
}
