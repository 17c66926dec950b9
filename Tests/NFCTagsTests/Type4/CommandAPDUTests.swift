import NDEF
import NFCTags
import Testing

/// Short APDUs both ways, with the T4T vectors of `docs/reference/type4.md` §1.2.
@Suite struct CommandAPDUTests {
    private func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }

    @Test func selectTheNDEFApplicationEncodesWithLeZero() {
        let apdu = CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x00, data: hex("D2 76 00 00 85 01 01"), le: 256)
        #expect(apdu.bytes == hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00"))
    }

    @Test func selectByFileIdentifierHasNoLe() {
        let apdu = CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C, data: hex("E1 03"))
        #expect(apdu.bytes == hex("00 A4 00 0C 02 E1 03"))
    }

    @Test func readBinaryHasOnlyLe() {
        #expect(CommandAPDU(ins: 0xB0, p1: 0x00, p2: 0x02, le: 15).bytes == hex("00 B0 00 02 0F"))
        #expect(CommandAPDU(ins: 0xB0, p1: 0x01, p2: 0x00, le: 255).bytes == hex("00 B0 01 00 FF"))
    }

    @Test func responsesSplitDataAndStatusWordBothWays() throws {
        let answer = hex("00 0F 20 90 00")
        let response = try ResponseAPDU(answer)
        #expect(response.data == hex("00 0F 20"))
        #expect(response.status == 0x9000)
        #expect(response.bytes == answer)
        #expect(try ResponseAPDU(hex("6A 82")) == ResponseAPDU(status: 0x6A82))
    }

    @Test func anAnswerWithoutAStatusWordIsInvalid() {
        for answer in [[0x90], []] as [[UInt8]] {
            #expect {
                try ResponseAPDU(answer)
            } throws: { error in
                guard case .invalidResponse = error as? TransportError else { return false }
                return true
            }
        }
    }
}

/// Status words map to the kinds a T4T reader acts on (`docs/reference/type4.md` §1.7).
@Suite struct StatusWordErrorTests {
    @Test(arguments: [
        (UInt16(0x6A82), StatusWordError.Kind.notFound), (0x6982, .securityStatus), (0x6985, .conditions),
        (0x6700, .malformed), (0x6A86, .malformed), (0x6A87, .malformed), (0x6B00, .wrongParameters),
        (0x6C10, .wrongLength(available: 16)), (0x6C00, .wrongLength(available: 256)), (0x6581, .unexpected),
        (0x911E, .unexpected),
    ])
    func wordsMapToKinds(_ status: UInt16, _ kind: StatusWordError.Kind) {
        #expect(StatusWordError(status: status, instruction: 0xD6).kind == kind)
    }

    @Test func theMessageNamesTheWordAndTheCommand() {
        #expect(StatusWordError(status: 0x6982, instruction: 0xD6).description.contains("6982"))
        #expect(
            StatusWordError(status: 0x6581, instruction: 0xB0).description == "unexpected status word 6581 (INS B0)")
    }
}
