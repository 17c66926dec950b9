import Foundation
import NDEF
import NFCTags
import TagEmulator
import Testing

/// The emulated VICCs answer as the chips do (`docs/reference/type5.md` §1.3–1.9, §2.6): system information, reads,
/// writes refused on locked blocks, Lock Block twice, addressing and silence.
@Suite struct Type5EmulatorTests {
    static let uid: [UInt8] = [0xE0, 0x04, 0x01, 0x50, 0x12, 0x34, 0x56, 0x78]
    static let air: [UInt8] = uid.reversed()

    static func send(_ tag: Type5Emulator, _ hex: String) -> TagAnswer {
        tag.exchange((Hex.bytes(hex.replacingOccurrences(of: "A", with: Hex.string(air))) ?? []))
    }

    static func data(_ hex: String) -> TagAnswer { .data(Hex.bytes(hex) ?? []) }

    @Test func theSLIXAnswersItsInventoryAndSystemInformation() {
        let tag = Type5Emulator(chip: .icodeSLIX, uid: Self.uid)
        #expect(tag.activate() == DetectedTag(iso15693UID: Self.uid, dsfid: 0))
        #expect(Self.send(tag, "26 01 00") == Self.data("00 00 78 56 34 12 50 01 04 E0"))
        #expect(Self.send(tag, "22 2B A") == Self.data("00 0F 78 56 34 12 50 01 04 E0 00 00 1B 03 01"))
        #expect(Self.send(tag, "02 20 00") == Self.data("00 E1 40 0E 01"))
        #expect(Self.send(tag, "02 23 00 01") == Self.data("00 E1 40 0E 01 03 00 FE 00"))
        #expect(Self.send(tag, "42 20 01") == Self.data("00 00 03 00 FE 00"))
        #expect(Self.send(tag, "02 3B 0F") == Self.data("01 01"), "an assumption: NXP parts refuse 3Bh")
    }

    @Test func aLockedBlockRefusesWritesAndASecondLock() {
        let tag = Type5Emulator(chip: .icodeSLIX2, uid: [0xE0, 0x04, 0x01, 0x08, 1, 2, 3, 4])
        #expect(Self.send(tag, "02 21 02 11 22 33 44") == Self.data("00"))
        #expect(Self.send(tag, "02 22 02") == Self.data("00"))
        #expect(Self.send(tag, "02 21 02 55 66 77 88") == Self.data("01 12"))
        #expect(Self.send(tag, "02 22 02") == Self.data("01 11"))
        #expect(Self.send(tag, "02 20 02") == Self.data("00 11 22 33 44"))
        #expect(Self.send(tag, "02 2C 01 02") == Self.data("00 00 01 00"))
        #expect(Self.send(tag, "02 20 50") == Self.data("01 10"))
        #expect(Self.send(tag, "42 21 03 00 00 00 00") == Self.data("01 03"), "no option flag on NXP writes")
        #expect(tag.image.count == 80 * 4 + 80 && tag.image[320 + 2] == 0x01)
    }

    @Test func addressingQuietAndSelectFollowTheStateMachine() {
        let tag = Type5Emulator(chip: .st25tv02k, uid: [0xE0, 0x02, 0x00, 0x00, 1, 2, 3, 4])
        let address = "04 03 02 01 00 00 02 E0"
        #expect(Self.send(tag, "22 20 78 56 34 12 50 01 04 E0 00") == .silence, "another UID")
        #expect(Self.send(tag, "12 20 00") == .silence, "select flag outside SELECTED")
        #expect(Self.send(tag, "22 02 \(address)") == .silence)
        #expect(Self.send(tag, "02 20 00") == .silence, "QUIET ignores non-addressed requests")
        #expect(Self.send(tag, "22 20 \(address) 00") == Self.data("00 E1 40 1F 01"))
        #expect(Self.send(tag, "22 25 \(address)") == Self.data("00"))
        #expect(Self.send(tag, "12 20 00") == Self.data("00 E1 40 1F 01"))
        #expect(Self.send(tag, "02 3B 04") == Self.data("00 04 \(address) 3F 00 03"))
        #expect(Self.send(tag, "02 C0 02") == .silence, "custom commands")
        #expect(Self.send(tag, "02 99") == Self.data("01 01"))
    }

    @Test func aTearedWriteLeavesTheBlockOldOrNewWholeAndTheTagGone() {
        var outcomes: Set<[UInt8]> = []
        for seed in UInt64(0)..<16 {
            var faults = TagFaults()
            faults.removedAfterExchanges = 0
            faults.seed = seed
            let tag = Type5Emulator(chip: .icodeSLIX, uid: Self.uid, faults: faults)
            #expect(Self.send(tag, "02 21 01 11 22 33 44") == .silence && !tag.isPresent)
            outcomes.insert(Array(tag.memory[4..<8]))
        }
        #expect(outcomes == [[0x03, 0x00, 0xFE, 0x00], [0x11, 0x22, 0x33, 0x44]])
    }

    @Test func anImageKeepsMemoryAndLocks() {
        let tag = Type5Emulator(chip: .icodeSLIX, uid: Self.uid)
        _ = Self.send(tag, "02 22 00")
        let copy = Type5Emulator(image: tag.image, chip: .icodeSLIX, uid: Self.uid)
        #expect(copy.memory == tag.memory && copy.locked == tag.locked && copy.locked[0])
        #expect(Type5Emulator.accepts(image: tag.image, chip: .icodeSLIX))
    }

    @Test func writesCostTheirProgrammingTime() {
        let tag = Type5Emulator(chip: .icodeSLIX, uid: Self.uid)
        let before = tag.airtimeMicroseconds
        _ = Self.send(tag, "02 21 01 00 00 00 00")
        let timing = Type5Timing(writeMicroseconds: 5_000)
        #expect(abs(tag.airtimeMicroseconds - before - timing.write(request: 7, answer: 1)) < 0.001)
    }
}
