import NDEF
import NFCTags
import Testing

@Suite struct NDEFTLVTests {
    @Test func shortMessagesUseOneLengthByte() {
        #expect(NDEFTLV.wrap([0xD0, 0x00, 0x00]) == [0x03, 0x03, 0xD0, 0x00, 0x00, 0xFE])
        #expect(NDEFTLV.wrap([]) == [0x03, 0x00, 0xFE])
        let wrapped = NDEFTLV.wrap(Array(repeating: 0xAA, count: 254))
        #expect(Array(wrapped.prefix(2)) == [0x03, 0xFE])
        #expect(wrapped.count == 2 + 254 + 1)
    }

    @Test func messagesFrom255BytesUseThreeLengthBytes() {
        let wrapped = NDEFTLV.wrap(Array(repeating: 0xAA, count: 255))
        #expect(Array(wrapped.prefix(4)) == [0x03, 0xFF, 0x00, 0xFF])
        #expect(wrapped.last == 0xFE)
        #expect(wrapped.count == 4 + 255 + 1)
        #expect(Array(NDEFTLV.wrap(Array(repeating: 0, count: 868)).prefix(4)) == [0x03, 0xFF, 0x03, 0x64])
    }

    @Test(arguments: [
        ("03 03 D0 00 00 FE", "D0 00 00"),
        ("00 00 03 03 D0 00 00 FE", "D0 00 00"),
        // NTAG213 factory layout: Lock Control TLV, then the NDEF TLV (docs/reference/type2.md §2.8, §5.4).
        ("01 03 A0 0C 34 03 03 D0 00 00 FE", "D0 00 00"),
        ("02 03 00 10 44 FD 02 AA BB 00 03 01 55 FE", "55"),
        ("03 FF 00 03 D0 00 00 FE", "D0 00 00"),
        ("03 00 FE 00 00", ""),
        ("03 02 AA BB", "AA BB"),
    ])
    func extractsTheFirstNDEFTLV(area: String, message: String) throws {
        let bytes = try #require(Hex.bytes(area))
        #expect(try NDEFTLV.extractMessage(fromArea: bytes) == Hex.bytes(message))
    }

    @Test func wrappedMessagesAreFoundAgain() throws {
        for count in [0, 1, 254, 255, 256, 868] {
            let message = (0..<count).map { UInt8($0 & 0xFF) }
            #expect(try NDEFTLV.extractMessage(fromArea: NDEFTLV.wrap(message) + [0, 0, 0]) == message)
        }
    }

    @Test(arguments: [
        ("", NDEFTLVError.Code.noNDEF, 0),
        ("00 00", .noNDEF, 2),
        ("FE 03 00", .terminatorBeforeNDEF, 0),
        ("01 03 A0 0C 34 FE", .terminatorBeforeNDEF, 5),
        ("04 01 00", .unknownTLV, 0),
        ("03", .truncated, 1),
        ("03 FF 00", .truncated, 1),
        ("03 05 D0 00", .truncated, 2),
        ("01 03 A0", .truncated, 2),
        ("03 FF FF FF", .invalidLength, 1),
    ])
    func badAreasGiveCodeAndOffset(area: String, code: NDEFTLVError.Code, offset: Int) throws {
        let bytes = try #require(Hex.bytes(area))
        do {
            let message = try NDEFTLV.extractMessage(fromArea: bytes)
            Issue.record("extracted \(message.count) bytes")
        } catch {
            #expect(error.code == code)
            #expect(error.offset == offset)
        }
    }
}
