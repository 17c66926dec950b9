import Support
import Testing

@Test func hexEncodesUpperLowerAndSeparated() {
    #expect(HexEncoding.encode([0x04, 0xA1, 0xFF]) == "04A1FF")
    #expect(HexEncoding.encode([0x04, 0xA1, 0xFF], lowercase: true) == "04a1ff")
    #expect(HexEncoding.encode([0xA2, 0x05, 0x34], separator: " ") == "A2 05 34")
    #expect(HexEncoding.encode([UInt8]()) == "")
}
