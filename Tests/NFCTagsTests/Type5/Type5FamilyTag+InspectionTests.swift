import NDEF
import NFCTags
import TestSupport
import Testing

/// `provision inspect`'s Type 5 view on scripted ICODE SLIX answers: system information, the CC and the lock
/// state in their sections, and a dump that stops at the first block the tag refuses.
@Suite struct Type5FamilyTagInspectionTests {
    @Test func theSectionsShowTheSystemInformationCCAndLocks() throws {
        let dump = (0..<28).map { block -> ScriptedTransceiver.Step in
            .exchange((Hex.bytes("22 20 \(Type5FamilyTagTests.air)") ?? []) + [UInt8(block)], [0, 0, 0, 0, 0])
        }
        let (tag, transceiver) = Type5FamilyTagTests.open(
            Type5FamilyTagTests.detection + dump)
        let result = try #require(tag.inspection).inspect(
            anticollisionUID: Type5FamilyTagTests.uid, dump: true, password: nil)
        #expect(result.identity.chip == Type5ChipModel.icodeSLIX.chip && result.identity.vendor == 0x04)
        #expect(result.status == .readWrite && result.capacity == 102 && result.message == [])
        let system = try #require(result.protection?.lines.map(\.text))
        #expect(
            system == [
                "manufacturer 04h (NXP), product byte 01h",
                "28 blocks of 4 bytes, IC reference 01h, DSFID 00h, AFI 00h",
            ])
        let locks = try #require(result.locks?.lines.map(\.text))
        #expect(locks.first == "E1 40 0E 01: write free, MLEN 14, T5T area 104 bytes")
        #expect(locks.last == "none of blocks 0–1 locked")
        #expect(result.dump?.count == 28 && transceiver.remaining.isEmpty && transceiver.mismatches.isEmpty)
    }
}
