import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// Formatting a blank Type 5 tag (`docs/reference/type5.md` §2.5): the CC for the chip's memory, `03 00 FE 00`, and the
/// refusal of a tag with a locked block.
@Suite struct Type5FamilyTagFormatTests {
    @Test(arguments: [(112, "E1 40 0E 01"), (316, "E1 40 27 01"), (2040, "E1 40 FF 01"), (8192, "E1 40 FF 05")])
    func theCCCountsTheWholeMemory(memoryBytes: Int, hex: String) {
        #expect(Hex.string(Type5FamilyTag.formatCC(memoryBytes: memoryBytes).bytes) == hex)
    }

    static func step(_ request: String, _ answer: String) -> ScriptedTransceiver.Step {
        Type5FamilyTagTests.step(request, answer)
    }

    static let blankSLIX: [ScriptedTransceiver.Step] = [
        step("22 2B A", "00 0F \(Type5FamilyTagTests.air) 00 00 1B 03 01"),
        step("22 20 A 00", "00 00 00 00 00"),
    ]

    @Test func aBlankSLIXGetsTheFactoryCCAndAnEmptyTLV() throws {
        let status = "00 " + Array(repeating: "00", count: 28).joined(separator: " ")
        let (tag, transceiver) = Type5FamilyTagTests.open(
            Self.blankSLIX + [
                Self.step("22 20 A 00", "00 00 00 00 00"), Self.step("22 2C A 00 1B", status),
                Self.step("22 21 A 00 E1 40 0E 01", "00"), Self.step("22 21 A 01 03 00 FE 00", "00"),
            ])
        try tag.identify()
        #expect(throws: TagError(.notNDEF, "")) { try tag.detectNDEF() }
        let formatter = try #require(tag.formatting)
        #expect(try formatter.isBlank())
        try formatter.formatBlank()
        #expect(transceiver.remaining.isEmpty && transceiver.mismatches.isEmpty, "\(transceiver.mismatches)")
    }

    @Test func aLockedBlockRefusesFormatting() throws {
        let status = "00 00 01 " + Array(repeating: "00", count: 26).joined(separator: " ")
        let (tag, transceiver) = Type5FamilyTagTests.open(
            Self.blankSLIX.prefix(1) + [Self.step("22 2C A 00 1B", status)])
        try tag.identify()
        #expect(throws: TagError(.readOnly, "")) { try tag.formatting?.formatBlank() }
        #expect(transceiver.sent.count == 2, "nothing written")
    }
}
