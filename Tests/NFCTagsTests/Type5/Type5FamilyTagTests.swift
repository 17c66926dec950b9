import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// The Type 5 seam on scripted ICODE SLIX answers: identification, detection, the tear-safe write of the
/// `https://example.com` image of `docs/reference/type5.md` §2.2, read-back and the lock of §2.6, frame by frame.
@Suite struct Type5FamilyTagTests {
    static let uid: [UInt8] = [0xE0, 0x04, 0x01, 0x50, 0x12, 0x34, 0x56, 0x78]
    static let air = "78 56 34 12 50 01 04 E0"
    static let record = "D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D"

    static func step(_ request: String, _ answer: String) -> ScriptedTransceiver.Step {
        .exchange(Hex.bytes(request.replacingOccurrences(of: "A", with: air)) ?? [], Hex.bytes(answer) ?? [])
    }

    static let detection: [ScriptedTransceiver.Step] = [
        step("22 2B A", "00 0F \(air) 00 00 1B 03 01"),
        step("22 20 A 00", "00 E1 40 0E 01"),
        step("22 23 A 01 00", "00 03 00 FE 00"),
        step("22 2C A 00 01", "00 00 00"),
    ]

    static func open(_ steps: [ScriptedTransceiver.Step]) -> (Type5FamilyTag, ScriptedTransceiver) {
        let transceiver = ScriptedTransceiver(steps)
        let activation = DetectedTag(iso15693UID: uid, dsfid: 0)
        let tag = Type5Family().open(transceiver, activation: activation)
        return (tag as? Type5FamilyTag ?? Type5FamilyTag(Type5Tag(transceiver: transceiver)), transceiver)
    }

    @Test func identifiesTheSLIXAndFindsItsEmptyFactoryTLV() throws {
        let (tag, transceiver) = Self.open(Self.detection)
        #expect(try tag.identify() == Type5ChipModel.icodeSLIX.chip)
        let detected = try tag.detectNDEF()
        #expect(detected.status == .readWrite && detected.capacity == 102)
        #expect(try tag.readNDEF() == [])
        #expect(transceiver.remaining.isEmpty && transceiver.mismatches.isEmpty, "\(transceiver.mismatches)")
        #expect(tag.lockState()?.isPermanent == false)
    }

    @Test func writesLengthZeroFirstTheBodyThenTheRealLengthAndReadsItBack() throws {
        let message = try #require(Hex.bytes(Self.record))
        let writes = [
            Self.step("22 21 A 01 03 00 D1 01", "00"), Self.step("22 21 A 02 0C 55 04 65", "00"),
            Self.step("22 21 A 03 78 61 6D 70", "00"), Self.step("22 21 A 04 6C 65 2E 63", "00"),
            Self.step("22 21 A 05 6F 6D FE 00", "00"), Self.step("22 21 A 01 03 10 D1 01", "00"),
            Self.step("22 23 A 01 04", "00 03 10 D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D FE 00"),
        ]
        let (tag, transceiver) = Self.open(Self.detection + writes)
        try tag.identify()
        _ = try tag.detectNDEF()
        let result = try tag.writeNDEF(message)
        #expect(result.writtenPages == [1, 2, 3, 4, 5, 1] && result.skippedPages.isEmpty)
        try tag.verify(result, ignoring: [])
        #expect(transceiver.remaining.isEmpty && transceiver.mismatches.isEmpty, "\(transceiver.mismatches)")
        #expect(tag.cost.writes == 6)
    }

    @Test func locksTheCCThenEveryBlockOfCCAndTLVAndConfirmsThem() throws {
        let lock = [
            Self.step("22 21 A 00 E1 43 0E 01", "00"),
            Self.step("22 22 A 00", "00"), Self.step("22 22 A 01", "00"), Self.step("22 2C A 00 01", "00 01 01"),
        ]
        let (tag, transceiver) = Self.open(Self.detection + lock)
        try tag.identify()
        _ = try tag.detectNDEF()
        try tag.writeLock()
        #expect(tag.lockReadBack().map(\.bytes) == [[0x01], [0x01]])
        #expect(tag.lockState()?.isPermanent == true)
        #expect(transceiver.remaining.isEmpty && transceiver.mismatches.isEmpty, "\(transceiver.mismatches)")
    }

    /// Block 1 answers `01 11` (locked since detection): accepted; block 0 reads back open, so the lock fails.
    @Test func aBlockThatStaysUnlockedFailsTheLock() throws {
        let lock = [
            Self.step("22 21 A 00 E1 43 0E 01", "00"),
            Self.step("22 22 A 00", "00"), Self.step("22 22 A 01", "01 11"), Self.step("22 2C A 00 01", "00 00 01"),
        ]
        let (tag, transceiver) = Self.open(Self.detection + lock)
        try tag.identify()
        _ = try tag.detectNDEF()
        #expect(throws: TagError(.lockFailed, "")) { try tag.writeLock() }
        #expect(transceiver.remaining.isEmpty && transceiver.mismatches.isEmpty, "\(transceiver.mismatches)")
    }

    @Test func aLockedBlockRefusingAWriteIsReadOnly() throws {
        let (tag, _) = Self.open(Self.detection + [Self.step("22 21 A 01 03 00 D1 01", "01 12")])
        try tag.identify()
        _ = try tag.detectNDEF()
        #expect(throws: TagError(.readOnly, "")) { try tag.writeNDEF(Hex.bytes(Self.record) ?? []) }
    }

    @Test func aMessageBeyondTheAreaIsRefusedBeforeAnythingIsSent() throws {
        let (tag, transceiver) = Self.open(Self.detection)
        try tag.identify()
        _ = try tag.detectNDEF()
        #expect(throws: TagError(.capacity, "")) { try tag.writeNDEF([UInt8](repeating: 0x41, count: 103)) }
        #expect(transceiver.sent.count == 4)
    }

    @Test func noCCIsNotNDEF() throws {
        let (tag, _) = Self.open([
            Self.step("22 2B A", "00 0F \(Self.air) 00 00 1B 03 01"), Self.step("22 20 A 00", "00 00 00 00 00"),
        ])
        try tag.identify()
        #expect(try tag.queryNDEFStatus().status == .notSupported)
    }
}

/// Identification falls back to Extended Get System Information when `2B` is refused (`docs/reference/type5.md` §1.3).
@Suite struct Type5IdentificationFallbackTests {
    @Test func aRefusedGetSystemInformationIsAskedInItsExtendedForm() throws {
        let air = "01 00 00 00 00 00 02 E0"
        let uid: [UInt8] = [0xE0, 0x02, 0, 0, 0, 0, 0, 1]
        let transceiver = ScriptedTransceiver([
            .exchange(Hex.bytes("22 2B \(air)") ?? [], [0x01, 0x01]),
            .exchange(Hex.bytes("22 3B \(air) 0F") ?? [], Hex.bytes("00 0C \(air) FF 01 03 26") ?? []),
        ])
        let tag = Type5FamilyTag(Type5Tag(transceiver: transceiver, uid: uid))
        #expect(try tag.identify() == Type5ChipModel.st25dv.chip)
        #expect(tag.systemInformation?.blockCount == 512 && transceiver.mismatches.isEmpty)
    }
}
