import NDEF
import Testing

@Test func readersConsumeAndReturnNilWhenShort() {
    var cursor = ByteCursor([0x03, 0xFF, 0x01, 0x02])
    #expect(cursor.readUInt8() == 0x03)
    #expect(cursor.readUInt8() == 0xFF)
    #expect(cursor.readUInt16BE() == 0x0102)
    #expect(cursor.readUInt8() == nil)
    #expect(cursor.readableBytes == 0)
}

@Test(arguments: [
    ("A2 05 34 03", [UInt8]([0xA2, 0x05, 0x34, 0x03])),
    ("0xA2 0x05", [0xA2, 0x05]),
    ("a205\n3403", [0xA2, 0x05, 0x34, 0x03]),
])
func hexParsesTolerantly(text: String, bytes: [UInt8]) {
    #expect(Hex.bytes(text) == bytes)
}

@Test(arguments: ["A", "G0", "0x", "A 2"])
func hexRejectsMalformedText(text: String) {
    #expect(Hex.bytes(text) == nil)
}

@Test func hexFormatsUpperCaseSpaceSeparated() {
    #expect(Hex.string([0xA2, 0x05, 0x0D]) == "A2 05 0D")
    #expect(Hex.compact([0x04, 0xA1]) == "04A1")
}
