import NDEF
import Testing

@Test func formatsUpperCaseWithOrWithoutSeparator() {
    #expect(Hex.string([0xA2, 0x05, 0x34]) == "A2 05 34")
    #expect(Hex.string([0x0A, 0xFF], separator: ":") == "0A:FF")
    #expect(Hex.compact([0x04, 0xA1, 0xB2]) == "04A1B2")
    #expect(Hex.byte(0x0D) == "0D")
}

@Test(
    arguments: [
        ("04A1b2", [0x04, 0xA1, 0xB2]),
        ("04 a1\tB2\n", [0x04, 0xA1, 0xB2]),
        ("0x04,0xA1", [0x04, 0xA1]),
        ("04:A1", [0x04, 0xA1]),
        ("", []),
    ] as [(String, [UInt8])])
func parsesToleratingSeparatorsAndPrefixes(_ text: String, _ bytes: [UInt8]) {
    #expect(Hex.bytes(text) == bytes)
}

@Test(arguments: ["4", "0G", "0 4", "x04", "0x", "1x04"])
func refusesOddDigitsStrayCharactersAndSplitBytes(_ text: String) {
    #expect(Hex.bytes(text) == nil, "\(text)")
}
