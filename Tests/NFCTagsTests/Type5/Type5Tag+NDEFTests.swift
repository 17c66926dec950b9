import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// NDEF detection and reading on scripted answers for the 8-byte CC (MLEN in bytes 6–7), a proprietary TLV
/// skipped by its length, a 3-byte L, and Read Multiple Blocks in runs that never cross a 32-block sector
/// (`docs/reference/type5.md` §2.1–2.3).
@Suite struct Type5TagNDEFTests {
    static let air = "01 00 00 00 00 00 16 E0"
    static let uid: [UInt8] = [0xE0, 0x16, 0, 0, 0, 0, 0, 1]

    /// 160 blocks: CC `E1 40 00 01 00 00 00 40` (MLEN 64: 512 bytes), `FD 01 AA`, then `03 FF 01 00` and 256 bytes.
    static let memory: [UInt8] = {
        var bytes = [UInt8](repeating: 0, count: 640)
        let head: [UInt8] = [0xE1, 0x40, 0x00, 0x01, 0x00, 0x00, 0x00, 0x40, 0xFD, 0x01, 0xAA, 0x03, 0xFF, 0x01, 0x00]
        bytes.replaceSubrange(0..<head.count, with: head)
        for index in 0..<256 { bytes[15 + index] = UInt8(index) }
        bytes[271] = 0xFE
        return bytes
    }()

    static func blocks(_ first: Int, _ count: Int) -> String {
        "00 " + Hex.string(memory[first * 4..<(first + count) * 4])
    }

    static func step(_ request: String, _ answer: String) -> ScriptedTransceiver.Step {
        .exchange(Hex.bytes(request.replacingOccurrences(of: "A", with: air)) ?? [], Hex.bytes(answer) ?? [])
    }

    @Test func theLongCCAndAThreeByteLengthAreFoundAndReadInSectorRuns() throws {
        let transceiver = ScriptedTransceiver([
            Self.step("22 2B A", "00 0F \(Self.air) 00 00 9F 03 00"),
            Self.step("22 20 A 00", Self.blocks(0, 1)), Self.step("22 20 A 01", Self.blocks(1, 1)),
            Self.step("22 23 A 02 00", Self.blocks(2, 1)), Self.step("22 23 A 03 00", Self.blocks(3, 1)),
            Self.step("22 2C A 00 43", "00 " + Array(repeating: "00", count: 68).joined(separator: " ")),
            Self.step("22 23 A 04 1B", Self.blocks(4, 28)), Self.step("22 23 A 20 1F", Self.blocks(32, 32)),
            Self.step("22 23 A 40 03", Self.blocks(64, 4)),
        ])
        let tag = Type5FamilyTag(Type5Tag(transceiver: transceiver, uid: Self.uid))
        #expect(try tag.identify() == Type5ChipModel.generic.chip)
        let detected = try tag.detectNDEF()
        #expect(detected == (.readWrite, 500))
        let area = try #require(tag.area)
        #expect(area.capabilityContainer.isLong && area.tlvOffset == 11 && area.lengthFieldSize == 3)
        #expect(try tag.readNDEF() == (0..<256).map { UInt8($0) })
        #expect(transceiver.remaining.isEmpty && transceiver.mismatches.isEmpty, "\(transceiver.mismatches)")
    }

    @Test func theTLVForALongMessageHasAThreeByteLengthAndATerminatorWhereThereIsRoom() throws {
        let cc = try #require(Type5CapabilityContainer([0xE1, 0x40, 0x28, 0x01]))
        let area = Type5NDEFArea(blockSize: 4, blockCount: 79, capabilityContainer: cc)
        let tlv = area.tlv(for: [UInt8](repeating: 0x41, count: 300))
        #expect(Array(tlv.prefix(4)) == [0x03, 0xFF, 0x01, 0x2C] && tlv.last == 0xFE && tlv.count == 305)
        let full = area.tlv(for: [UInt8](repeating: 0x41, count: area.capacity))
        #expect(full.last == 0x41 && 4 + full.count == area.areaEnd, "a full area has no terminator")
        #expect(area.layout(tlv).map(\.block) == Array(1...77))
    }

    /// An ST25DV64K-style 8-byte CC with magic `E2` (`E2 40 00 01 00 00 03 FF`, §2.1): every request after block 0
    /// uses the extended commands with 2-byte block numbers, LSB first; detection, the tear-safe write, the
    /// read-back, a block past 255 and the lock all go that way.
    @Test func anE2CCSwitchesEveryLaterRequestToTwoByteBlockNumbers() throws {
        let transceiver = ScriptedTransceiver([
            Self.step("22 20 A 00", "00 E2 40 00 01"), Self.step("22 30 A 01 00", "00 00 00 03 FF"),
            Self.step("22 33 A 02 00 00 00", "00 03 00 FE 00"),
            Self.step("22 31 A 02 00 03 00 D0 00", "00"), Self.step("22 31 A 03 00 00 FE 00 00", "00"),
            Self.step("22 31 A 02 00 03 03 D0 00", "00"),
            Self.step("22 33 A 02 00 01 00", "00 03 03 D0 00 00 FE 00 00"),
            Self.step("22 30 A 2C 01", "00 11 22 33 44"),
            Self.step("22 32 A 03 00", "00"), Self.step("22 3C A 00 00 03 00", "00 00 00 00 01"),
        ])
        let tag = Type5Tag(transceiver: transceiver, uid: Self.uid)
        var area = try tag.detectNDEF(blockCount: 2048)
        #expect(tag.extendedAddressing && area.capabilityContainer.magic == 0xE2 && area.capabilityContainer.isLong)
        #expect(area.tlvOffset == 8 && area.messageLength == 0)
        #expect(area.capacity == 8172, "the smaller MLEN reading (CC counted): 8184 − 8 − 4 (T, 3-byte L)")
        let written = try tag.writeMessage([0xD0, 0x00, 0x00], area: &area)
        #expect(written.writtenPages == [2, 3, 2])
        try tag.verify(written, area: &area)
        #expect(try tag.readSingleBlock(300) == [0x11, 0x22, 0x33, 0x44])
        try tag.lockBlock(3)
        #expect(try tag.getMultipleBlockSecurityStatus(first: 0, count: 4) == [0x00, 0x00, 0x00, 0x01])
        #expect(transceiver.remaining.isEmpty && transceiver.mismatches.isEmpty, "\(transceiver.mismatches)")
    }
}
