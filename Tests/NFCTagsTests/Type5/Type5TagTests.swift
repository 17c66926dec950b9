import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// The ISO 15693 commands one by one on scripted answers (`docs/reference/type5.md` §1.3, §1.4): frames sent, answers
/// parsed, error answers typed.
@Suite struct Type5TagTests {
    static let uid: [UInt8] = [0xE0, 0x04, 0x01, 0x50, 0x12, 0x34, 0x56, 0x78]
    static let air = "78 56 34 12 50 01 04 E0"

    static func tag(_ steps: [(String, String)]) -> (Type5Tag, ScriptedTransceiver) {
        let transceiver = ScriptedTransceiver(
            steps.map {
                .exchange(Hex.bytes($0.0.replacingOccurrences(of: "A", with: air)) ?? [], Hex.bytes($0.1) ?? [])
            })
        return (Type5Tag(transceiver: transceiver, uid: uid), transceiver)
    }

    @Test func inventoryIsNeverAddressedAndGivesTheUIDInDisplayOrder() throws {
        let transceiver = ScriptedTransceiver([.exchange([0x26, 0x01, 0x00], Hex.bytes("00 00 \(Self.air)") ?? [])])
        let tag = Type5Tag(transceiver: transceiver)
        let found = try tag.inventory()
        #expect(found.uid == Self.uid && found.dsfid == 0 && tag.uid == Self.uid)
        #expect(transceiver.mismatches.isEmpty)
    }

    @Test func everyCommandSendsItsFrameAndParsesItsAnswer() throws {
        let (tag, transceiver) = Self.tag([
            ("22 20 A 03", "00 01 02 03 04"),
            ("62 20 A 03", "00 01 01 02 03 04"),
            ("22 23 A 00 01", "00 E1 40 0E 01 03 00 FE 00"),
            ("22 21 A 01 03 00 FE 00", "00"),
            ("22 22 A 01", "00"),
            ("22 2C A 00 02", "00 01 01 00"),
            ("22 3B A 0F", "00 0F \(Self.air) 00 00 3F 00 03 00"),
        ])
        #expect(try tag.readSingleBlock(3) == [1, 2, 3, 4])
        #expect(try tag.readSingleBlock(3, securityStatus: true) == [1, 1, 2, 3, 4])
        #expect(try tag.readMultipleBlocks(first: 0, count: 2, blockSize: 4).count == 8)
        try tag.writeSingleBlock(1, [0x03, 0x00, 0xFE, 0x00])
        try tag.lockBlock(1)
        #expect(try tag.getMultipleBlockSecurityStatus(first: 0, count: 3) == [1, 1, 0])
        let extended = try tag.extendedGetSystemInformation()
        #expect(extended.blockCount == 64 && extended.blockSize == 4 && extended.icReference == 0x00)
        #expect(transceiver.remaining.isEmpty && transceiver.mismatches.isEmpty, "\(transceiver.mismatches)")
        #expect(tag.total.exchanges == 7 && tag.total.writes == 2)
    }

    @Test(arguments: [UInt8(0x0F), 0x10, 0x11, 0x12, 0x13, 0x14])
    func errorAnswersAreTyped(code: UInt8) throws {
        let (tag, _) = Self.tag([("22 21 A 01 00 00 00 00", "01 " + Hex.byte(code))])
        #expect(throws: ISO15693Error(code: code, command: 0x21)) { try tag.writeSingleBlock(1, [0, 0, 0, 0]) }
    }

    @Test func error13IsIgnoredWhereTheChipSaysSo() throws {
        let write = ("62 21 A 01 00 00 00 00", "01 13")
        let (tag, transceiver) = Self.tag([write, write, ("62 22 A 01", "01 13"), ("62 22 A 01", "01 13")])
        tag.optionFlagOnWrites = true
        // Where the chip says so, error 13 (block not programmed) after a write or lock is the success it is.
        try tag.writeSingleBlock(1, [0, 0, 0, 0], ignoringNotProgrammed: true)
        // Elsewhere it is the error it says.
        #expect(throws: ISO15693Error(code: 0x13, command: 0x21)) { try tag.writeSingleBlock(1, [0, 0, 0, 0]) }
        try tag.lockBlock(1, ignoringNotProgrammed: true)
        #expect(throws: ISO15693Error(code: 0x13, command: 0x22)) { try tag.lockBlock(1) }
        #expect(transceiver.remaining.isEmpty && transceiver.mismatches.isEmpty, "\(transceiver.mismatches)")
    }

    @Test func silenceAndMalformedAnswersAreTransportErrors() throws {
        let transceiver = ScriptedTransceiver([
            .fail(Hex.bytes("22 20 \(Self.air) 00") ?? [], .noAnswer),
            .exchange(Hex.bytes("22 20 \(Self.air) 00") ?? [], []),
            .exchange(Hex.bytes("22 2C \(Self.air) 00 01") ?? [], [0x00, 0x01]),
        ])
        let tag = Type5Tag(transceiver: transceiver, uid: Self.uid)
        #expect(throws: TransportError.noAnswer) { try tag.readSingleBlock(0) }
        #expect(throws: TransportError.self) { try tag.readSingleBlock(0) }
        #expect(throws: TransportError.self) { try tag.getMultipleBlockSecurityStatus(first: 0, count: 2) }
    }
}
