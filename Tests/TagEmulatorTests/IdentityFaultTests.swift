import NDEF
import NFCTags
import TagEmulator
import Testing

/// Clone tags whose pages 0–2 disagree with their identity (`identity=` and `clone` of a `sim:` spec).
@Suite struct IdentityFaultTests {
    static func clone(_ fault: IdentityFault) throws -> NTAGEmulator {
        var faults = TagFaults()
        faults.identity = fault
        return try NTAGEmulator(chip: .ntag215, uid: hex("04 A1 B2 C3 D4 E5 F6"), faults: faults)
    }

    @Test func uidCloneAnswersItsUIDInAnticollisionButPagesHoldAnother() throws {
        let tag = try Self.clone(.uid)
        #expect(tag.uid == (try hex("04 A1 B2 C3 D4 E5 F6")))
        _ = tag.receiveRaw([0x26], lastByteBits: 7)
        #expect(tag.receiveRaw([0x93, 0x20], lastByteBits: 8) == .data(try hex("88 04 A1 B2 9F")))
        _ = tag.receiveRaw(try hex("93 70 88 04 A1 B2 9F AE 4B"), lastByteBits: 8)
        #expect(tag.receiveRaw([0x95, 0x20], lastByteBits: 8) == .data(try hex("C3 D4 E5 F6 04")))
        _ = tag.receiveRaw(try hex("95 70 C3 D4 E5 F6 04 9E 03"), lastByteBits: 8)
        #expect(tag.state == .active)
        // READ 00: UID3–UID6 of another tag (each byte ^ A5), BCCs right for that UID, INT 48, CC.
        #expect(tag.exchange([0x30, 0x00]) == .data(try hex("04 A1 B2 9F 66 71 40 53 04 48 00 00 E1 10 3E 00")))
    }

    @Test(arguments: [
        (IdentityFault.bcc0, "04 A1 B2 9E C3 D4 E5 F6 04 48 00 00"),
        (.bcc1, "04 A1 B2 9F C3 D4 E5 F6 05 48 00 00"),
        (.int, "04 A1 B2 9F C3 D4 E5 F6 04 00 00 00"),
    ])
    func otherFaultsBreakOneIdentityByte(fault: IdentityFault, pages: String) throws {
        let tag = try Self.clone(fault)
        _ = try #require(tag.activate())
        #expect(tag.exchange([0x30, 0x00]) == .data(try hex(pages + " E1 10 3E 00")))
        #expect(tag.uid == (try hex("04 A1 B2 C3 D4 E5 F6")))
    }

    @Test func aLoadedCloneImageKeepsItsAnticollisionUID() throws {
        let clone = try Self.clone(.uid)
        let loaded = try NTAGEmulator(image: clone.image, chip: .ntag215, anticollisionUID: clone.uid)
        #expect(loaded.uid == clone.uid)
        #expect(try NTAGEmulator(image: clone.image, chip: .ntag215).uid == (try hex("04 A1 B2 66 71 40 53")))
        #expect(throws: EmulatorError.invalidUID([0x04])) {
            try NTAGEmulator(image: clone.image, chip: .ntag215, anticollisionUID: [0x04])
        }
    }

    @Test func identityListGivesEachTagItsFault() throws {
        let options = try SimulationOptions("sim:ntag215?identity=-,uid,bcc0,bcc1,int")
        #expect(options.identityFaults == [nil, .uid, .bcc0, .bcc1, .int])
        #expect((0..<7).map { options.faults(forTagAt: $0).identity } == [nil, .uid, .bcc0, .bcc1, .int, nil, nil])
        #expect(!options.faults(forTagAt: 1).isEmpty)
    }

    @Test(arguments: ["sim:ntag215?identity=uid,bcc2", "sim:ntag215?identity=-,,uid"])
    func badIdentityEntriesNameTheEntry(spec: String) {
        #expect {
            try SimulationOptions(spec)
        } throws: { error in
            guard let error = error as? ReaderSpecError else { return false }
            return error.reason.hasPrefix("identity: unknown identity fault")
                && error.reason.contains("bcc0, bcc1, int")
        }
    }

    @Test func cloneFaultIsDrawnLastSoTheOtherFaultsOfASeedStay() throws {
        let rates = "tear:0.3,nak5:0.3,noanswer:0.3,readonly:0.3,unformatted:0.3,wrongchip:0.3,multi:0.3"
        let without = try SimulationOptions("sim:ntag213?seed=9&faults=\(rates)")
        let with = try SimulationOptions("sim:ntag213?seed=9&faults=\(rates),clone:0.5")
        var clones = 0
        for index in 0..<200 {
            var faults = with.faults(forTagAt: index)
            if faults.identity == .uid { clones += 1 }
            faults.identity = nil
            #expect(faults == without.faults(forTagAt: index))
        }
        #expect(clones > 60 && clones < 140)
        let all = try SimulationOptions("sim:ntag213?faults=clone:1")
        #expect((0..<20).allSatisfy { all.faults(forTagAt: $0).identity == .uid })
    }
}
