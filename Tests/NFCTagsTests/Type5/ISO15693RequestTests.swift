import NDEF
import NFCTags
import Testing

/// Request framing (`docs/reference/type5.md` §1.2, §1.3): flags, the UID LSB first on the air, both ways.
@Suite struct ISO15693RequestTests {
    static let uid: [UInt8] = [0xE0, 0x04, 0x01, 0x50, 0x12, 0x34, 0x56, 0x78]

    static let vectors: [(String, ISO15693Request)] = [
        ("02 20 00", ISO15693Request(.readSingleBlock, parameters: [0x00])),
        ("22 20 78 56 34 12 50 01 04 E0 05", ISO15693Request(.readSingleBlock, uid: uid, parameters: [0x05])),
        ("02 2B", ISO15693Request(.getSystemInformation)),
        (
            "22 21 78 56 34 12 50 01 04 E0 01 03 10 D1 01",
            ISO15693Request(.writeSingleBlock, uid: uid, parameters: [0x01, 0x03, 0x10, 0xD1, 0x01])
        ),
        (
            "62 22 78 56 34 12 50 01 04 E0 00",
            ISO15693Request(.lockBlock, flags: [.highDataRate, .option], uid: uid, parameters: [0x00])
        ),
        (
            "22 2C 78 56 34 12 50 01 04 E0 00 05",
            ISO15693Request(.getMultipleBlockSecurityStatus, uid: uid, parameters: [0x00, 0x05])
        ),
        ("02 3B 0F", ISO15693Request(.extendedGetSystemInformation, parameters: [0x0F])),
        // 2-byte block numbers and counts, LSB first (a CC with magic E2, docs/reference/type5.md §1.3).
        (
            "22 30 78 56 34 12 50 01 04 E0 23 01",
            ISO15693Request(.extendedReadSingleBlock, uid: uid, parameters: [0x23, 0x01])
        ),
        (
            "22 31 78 56 34 12 50 01 04 E0 00 01 03 00 FE 00",
            ISO15693Request(.extendedWriteSingleBlock, uid: uid, parameters: [0x00, 0x01, 0x03, 0x00, 0xFE, 0x00])
        ),
        (
            "22 32 78 56 34 12 50 01 04 E0 FF 03",
            ISO15693Request(.extendedLockBlock, uid: uid, parameters: [0xFF, 0x03])
        ),
        (
            "22 33 78 56 34 12 50 01 04 E0 00 01 1F 00",
            ISO15693Request(.extendedReadMultipleBlocks, uid: uid, parameters: [0x00, 0x01, 0x1F, 0x00])
        ),
        (
            "22 3C 78 56 34 12 50 01 04 E0 00 00 03 00",
            ISO15693Request(.extendedGetMultipleBlockSecurityStatus, uid: uid, parameters: [0x00, 0x00, 0x03, 0x00])
        ),
    ]

    @Test(arguments: vectors) func encodesAndParsesBothWays(hex: String, request: ISO15693Request) throws {
        let bytes = try #require(Hex.bytes(hex))
        #expect(request.bytes == bytes)
        #expect(ISO15693Request(frame: bytes) == request)
    }

    @Test func anAddressedFrameCutInsideTheUIDDoesNotParse() {
        let whole = ISO15693Request(.readSingleBlock, uid: Self.uid, parameters: [0x00]).bytes
        for cut in 0..<10 { #expect(ISO15693Request(frame: Array(whole.prefix(cut))) == nil) }
    }

    @Test func errorCodesHaveTheirMeanings() {
        #expect(ISO15693Error(code: 0x12, command: 0x21).description == "command 21h refused 12h (block locked)")
        #expect(ISO15693Error(code: 0x0F, command: 0x20).isOutOfRange)
        #expect(ISO15693Error(code: 0x10, command: 0x20).isOutOfRange)
        #expect(ISO15693Error(code: 0x11, command: 0x22).meaning == "block already locked")
        #expect(ISO15693Error(code: 0x13, command: 0x21).meaning == "block not successfully programmed")
        #expect(ISO15693Error(code: 0x14, command: 0x22).meaning == "block not successfully locked")
    }
}
