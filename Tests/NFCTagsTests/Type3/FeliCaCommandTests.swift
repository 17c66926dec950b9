import NDEF
import NFCTags
import Testing

/// FeliCa frames both ways, against the byte-exact frames of `docs/reference/type3.md` §1.2 (nfcpy's Lite-S tests).
@Suite struct FeliCaCommandTests {
    static let idm = Hex.bytes("0102030405060708")!

    @Test func pollingFramesAndTheNDEFAnswer() throws {
        #expect(FeliCaCommand.polling(systemCode: 0x12FC, requestCode: 0) == Hex.bytes("06 00 12 FC 00 00"))
        #expect(FeliCaCommand.polling(systemCode: 0xFFFF) == Hex.bytes("06 00 FF FF 01 00"))
        let answer = try FeliCaCommand.parsePolling(Hex.bytes("12 01 0102030405060708 00F1FFFFFFFFFFFF")!)
        #expect(answer.idm == Self.idm && answer.pmm == Hex.bytes("00F1FFFFFFFFFFFF") && answer.systemCode == nil)
        #expect(answer.chip == .liteS)
        let withCode = try FeliCaCommand.parsePolling(Hex.bytes("14 01 0102030405060708 00F1000000014300 88 B4")!)
        #expect(withCode.systemCode == 0x88B4)
        #expect(throws: TransportError.self) { try FeliCaCommand.parsePolling(Hex.bytes("12 01 0102")!) }
    }

    @Test func readOfMCBothWays() throws {
        let read = FeliCaCommand.read(idm: Self.idm, services: [0x000B], blocks: [BlockListElement(block: 0x88)])
        #expect(read == Hex.bytes("10 06 0102030405060708 01 0B00 01 8088"))
        let answer = Hex.bytes("1D 07 0102030405060708 00 00 01 FFFFFF01 07000000 00000000 00000000")!
        let data = try FeliCaCommand.parseAnswer(answer, to: 0x06, idm: Self.idm, blocks: 1)
        #expect(data == Hex.bytes("FFFFFF01 07000000 00000000 00000000"))
    }

    @Test func writeOfCKBothWays() throws {
        let key = Hex.bytes("37363534 33323130 66656463 62613938")!
        let write = FeliCaCommand.write(
            idm: Self.idm, services: [0x0009], blocks: [BlockListElement(block: 0x87)], data: key)
        #expect(write == Hex.bytes("20 08 0102030405060708 01 0900 01 8087")! + key)
        let answer = Hex.bytes("0C 09 0102030405060708 00 00")!
        #expect(try FeliCaCommand.parseAnswer(answer, to: 0x08, idm: Self.idm, blocks: 1) == [])
    }

    @Test func statusFlagsBecomeTypedErrors() throws {
        let refused = Hex.bytes("0C 07 0102030405060708 01 A8")!
        #expect(throws: FeliCaStatusError(flag1: 0x01, flag2: 0xA8)) {
            try FeliCaCommand.parseAnswer(refused, to: 0x06, idm: Self.idm, blocks: 1)
        }
        #expect(FeliCaStatusError(flag1: 0x01, flag2: 0xB1).reason == "read refused (authentication required)")
        let otherIDm = Hex.bytes("0C 09 0102030405060709 00 00")!
        #expect(throws: TransportError.self) {
            try FeliCaCommand.parseAnswer(otherIDm, to: 0x08, idm: Self.idm, blocks: 1)
        }
    }

    @Test func blockListElementsInTwoAndThreeByteForms() throws {
        #expect(BlockListElement(block: 0x88).bytes == [0x80, 0x88])
        #expect(BlockListElement(block: 0x0102, serviceIndex: 1).bytes == [0x01, 0x02, 0x01])
        let parsed = try #require(BlockListElement.parse([0x80, 0x82, 0x01, 0x02, 0x01], at: 0, count: 2))
        #expect(parsed.elements == [BlockListElement(block: 0x82), BlockListElement(block: 0x0102, serviceIndex: 1)])
        #expect(parsed.end == 5)
        #expect(BlockListElement.parse([0x00, 0x02], at: 0, count: 1) == nil)
    }

    @Test func chipsFromThePMmICType() {
        #expect(FeliCaChip(icType: 0xF0) == .lite && FeliCaChip(icType: 0xF2) == .liteS)
        #expect(FeliCaChip(icType: 0xE1) == .plug && FeliCaChip(icType: 0x01) == .standard(0x01))
        #expect(FeliCaChip(icType: 0xF1).tagChip == Type3Family.liteS)
    }

    @Test func responseTimeFromPMm() {
        // Lite-S PMm: read 01 → (n+2) × 302 µs, write 43 → (n+4) × 4 × 302 µs.
        #expect(abs(FeliCaTiming.maximumResponseMicroseconds(0x01, blocks: 1) - 906.18) < 0.01)
        #expect(abs(FeliCaTiming.maximumResponseMicroseconds(0x43, blocks: 1) - 6041.2) < 0.01)
        #expect(abs(FeliCaTiming.frameMicroseconds(len: 0x06) - 604.16) < 0.01)
    }
}
