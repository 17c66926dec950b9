import NDEF
import NFCTags
import TagEmulator
import Testing

/// The Type 5 family against the emulated chips: write, verify and lock on each, and a tear at every request of
/// a write leaving the old message, an empty TLV or the new one (`docs/reference/type5.md` §2.4).
@Suite struct Type5TagOnEmulatorTests {
    static let chips: [(Type5EmulatedChip, [UInt8], Type5ChipModel, Int)] = [
        (.icodeSLIX, [0xE0, 0x04, 0x01, 0x50, 1, 2, 3, 4], .icodeSLIX, 102),
        (.icodeSLIX2, [0xE0, 0x04, 0x01, 0x08, 1, 2, 3, 4], .icodeSLIX2, 308),
        (.st25tv02k, [0xE0, 0x02, 0x00, 0x00, 1, 2, 3, 4], .st25tv02k, 242),
        (.generic, [0xE0, 0x16, 0x00, 0x00, 1, 2, 3, 4], .generic, 242),
    ]

    static func open(_ tag: Type5Emulator) throws -> Type5FamilyTag {
        let transceiver = EmulatorTransceiver(tag: tag)
        let activation = try #require(tag.activate())
        let family = try TagFamilies.standard.open(transceiver, activation: activation)
        return try #require(family as? Type5FamilyTag)
    }

    static func message(_ count: Int, _ fill: UInt8) -> [UInt8] {
        guard count - 4 > 0xFF else {
            let text = [UInt8](repeating: fill, count: count - 7)
            return [0xD1, 0x01, UInt8(text.count + 3), 0x54, 0x02, 0x65, 0x6E] + text
        }
        let text = [UInt8](repeating: fill, count: count - 10)
        let payload = text.count + 3
        return [0xC1, 0x01, 0x00, 0x00, UInt8(payload >> 8), UInt8(payload & 0xFF), 0x54, 0x02, 0x65, 0x6E] + text
    }

    @Test(arguments: chips) func writesVerifiesAndLocksEachChip(
        chip: Type5EmulatedChip, uid: [UInt8], model: Type5ChipModel, capacity: Int
    ) throws {
        let emulated = Type5Emulator(chip: chip, uid: uid)
        let tag = try Self.open(emulated)
        #expect(try tag.identify() == model.chip)
        let detected = try tag.detectNDEF()
        #expect(detected == (.readWrite, capacity))
        let message = Self.message(capacity, 0x41)
        let written = try tag.writeNDEF(message)
        try tag.verify(written, ignoring: [])
        try tag.writeLock()
        #expect(tag.lockState()?.isPermanent == true)
        let again = try Self.open(emulated)
        try again.identify()
        #expect(try again.detectNDEF().status == .readOnly)
        #expect(try again.readNDEF() == message)
        #expect(throws: TagError(.readOnly, "")) { try again.writeNDEF([0xD0, 0x00, 0x00]) }
    }

    @Test func aTearAtEveryRequestLeavesOldEmptyOrNewAndTheTornTagFinishes() throws {
        let old = Self.message(40, 0x4F)
        let new = Self.message(60, 0x4E)
        var seen: Set<Int> = []
        for after in 0..<32 {
            for seed in UInt64(0)..<2 {
                let uid: [UInt8] = [0xE0, 0x04, 0x01, 0x50, 9, 9, 9, 9]
                let emulated = Type5Emulator(chip: .icodeSLIX, uid: uid)
                let first = try Self.open(emulated)
                try first.identify()
                _ = try first.writeNDEF(old)
                var faults = TagFaults()
                faults.removedAfterExchanges = after
                faults.seed = seed
                emulated.represent(faults: faults)
                let torn = try Self.open(emulated)
                do {
                    try torn.identify()
                    try torn.verify(try torn.writeNDEF(new), ignoring: [])
                } catch {}
                emulated.represent(faults: TagFaults())
                let check = try Self.open(emulated)
                try check.identify()
                let found = try check.readNDEF()
                #expect(found == old || found == [] || found == new, "tear after \(after): \(Hex.string(found))")
                seen.insert(found == old ? 0 : found == [] ? 1 : 2)
                try check.verify(try check.writeNDEF(new), ignoring: [])
                #expect(try check.readNDEF() == new)
            }
        }
        #expect(seen == [0, 1, 2])
    }

    @Test func garbageSilenceAndErrorAnswersReachTheHostAsTheirOwnKinds() throws {
        let uid: [UInt8] = [0xE0, 0x04, 0x01, 0x50, 7, 7, 7, 7]
        var faults = TagFaults()
        faults.answerFaults = [1: .garbage(3), 3: .nak(0x13)]
        faults.noAnswerExchanges = [2]
        let emulated = Type5Emulator(chip: .icodeSLIX, uid: uid, faults: faults)
        let tag = try Self.open(emulated)
        #expect(throws: (any Error).self) { try tag.identify() }
        #expect(throws: TransportError.noAnswer) { try tag.tag.readSingleBlock(0) }
        #expect(throws: ISO15693Error(code: 0x13, command: 0x21)) { try tag.tag.writeSingleBlock(1, [0, 0, 0, 0]) }
        #expect(emulated.memory[4..<8] == [0x03, 0x00, 0xFE, 0x00], "a refused write changes nothing")
        try tag.identify()
        #expect(tag.chip == Type5ChipModel.icodeSLIX.chip)
    }
}
