import NDEF
import NFCTags
import TestSupport
import Testing

/// Scripted T4T exchanges: the frames a Type 4 tag is sent for detection, reading and the tear-safe
/// update (`docs/reference/type4.md` §1.2–§1.5), asserted byte for byte.
@Suite struct Type4TagNDEFTests {
    static func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }
    static let ok: [UInt8] = [0x90, 0x00]
    /// MLe 3Bh, MLc 34h, NDEF file E104h of 2,048 bytes, open (nfcpy's test CC).
    static let cc = hex("00 0F 20 00 3B 00 34 04 06 E1 04 08 00 00 00")
    static let selectApplication = hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00")

    /// Detection up to the NLEN read, the tag answering NLEN `nlen`.
    static func detection(nlen: [UInt8], cc: [UInt8] = cc) -> [ScriptedTransceiver.Step] {
        [
            .exchange(selectApplication, ok), .exchange(hex("00 A4 00 0C 02 E1 03"), ok),
            .exchange(hex("00 B0 00 00 0F"), cc + ok), .exchange(hex("00 A4 00 0C 02 E1 04"), ok),
            .exchange(hex("00 B0 00 00 02"), nlen + ok),
        ]
    }

    static func finished(_ script: ScriptedTransceiver) {
        #expect(script.mismatches.isEmpty, "\(script.mismatches)")
        #expect(script.remaining.isEmpty)
    }

    @Test func detectionReadsTheCCAndNLENAndReportsCapacity() throws {
        let script = ScriptedTransceiver(Self.detection(nlen: [0x00, 0x05]))
        let tag = Type4Tag(transceiver: script)
        let (status, capacity) = try tag.detectNDEF()
        #expect(status == .readWrite && capacity == 2046)
        #expect(!tag.legacyMapping && tag.total.exchanges == 5)
        Self.finished(script)
    }

    @Test func aMappingOneTagAnswersTheOldNameWithoutLe() throws {
        let script = ScriptedTransceiver(
            [
                .exchange(Self.selectApplication, Self.hex("6A 82")),
                .exchange(Self.hex("00 A4 04 00 07 D2 76 00 00 85 01 00"), Self.ok),
            ] + Array(Self.detection(nlen: [0, 0]).dropFirst()))
        let tag = Type4Tag(transceiver: script)
        #expect(try tag.detectNDEF().status == .readWrite)
        #expect(tag.legacyMapping)
        Self.finished(script)
    }

    @Test func noApplicationIsNotSupported() throws {
        let script = ScriptedTransceiver([
            .exchange(Self.selectApplication, Self.hex("6A 82")),
            .exchange(Self.hex("00 A4 04 00 07 D2 76 00 00 85 01 00"), Self.hex("6A 82")),
        ])
        #expect(try Type4Tag(transceiver: script).detectNDEF() == (.notSupported, 0))
        Self.finished(script)
    }

    @Test func aWriteAccessOfFFIsReadOnlyAndAProprietaryOneToo() throws {
        for access: UInt8 in [0xFF, 0x83] {
            let cc = Array(Self.cc.dropLast()) + [access]
            let script = ScriptedTransceiver(Self.detection(nlen: [0, 3], cc: cc))
            let tag = Type4Tag(transceiver: script)
            #expect(try tag.detectNDEF().status == .readOnly)
            #expect(throws: TagError(.readOnly, "")) { try tag.writeNDEF([1, 2]) }
            Self.finished(script)
        }
    }

    @Test func theMessageIsReadInMLePieces() throws {
        let message = (0..<100).map { UInt8($0) }
        let script = ScriptedTransceiver(
            Self.detection(nlen: [0x00, 0x64]) + [
                .exchange(Self.hex("00 B0 00 02 3B"), Array(message[0..<59]) + Self.ok),
                .exchange(Self.hex("00 B0 00 3D 29"), Array(message[59...]) + Self.ok),
            ])
        let tag = Type4Tag(transceiver: script)
        _ = try tag.detectNDEF()
        #expect(try tag.readNDEF() == message)
        Self.finished(script)
    }

    @Test func anEmptyFileIsNotNDEFAndALengthBeyondTheFileIsRefused() throws {
        let empty = ScriptedTransceiver(Self.detection(nlen: [0, 0]))
        let tag = Type4Tag(transceiver: empty)
        _ = try tag.detectNDEF()
        #expect(throws: TagError(.notNDEF, "")) { try tag.readNDEF() }
        let beyond = ScriptedTransceiver(Self.detection(nlen: [0x08, 0x00]))
        #expect(throws: TagError(.notNDEF, "")) {
            let tag = Type4Tag(transceiver: beyond)
            _ = try tag.detectNDEF()
            _ = try tag.readNDEF()
        }
    }
}
