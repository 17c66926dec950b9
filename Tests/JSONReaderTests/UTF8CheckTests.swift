import JSONReader
import Testing

@Test(arguments: [
    ([0x41], 1), ([0xC3, 0xA9], 2), ([0xE2, 0x82, 0xAC], 3), ([0xF0, 0x9F, 0x98, 0x80], 4),
    ([0xC0, 0x80], 0),  // overlong
    ([0xED, 0xA0, 0x80], 0),  // surrogate
    ([0xF4, 0x90, 0x80, 0x80], 0),  // above U+10FFFF
    ([0xE2, 0x82], 0),  // truncated
    ([0x80], 0),  // continuation byte first
])
func sequenceLengthAcceptsOnlyWellFormedUTF8(_ bytes: [UInt8], _ length: Int) {
    #expect(UTF8Check.sequenceLength(bytes, at: 0) == length)
}
