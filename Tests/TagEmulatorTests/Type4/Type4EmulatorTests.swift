import NFCTags
import TagEmulator
import Testing

@Suite struct Type4EmulatorTests {
    static let selectApp = "00 A4 04 00 07 D2 76 00 00 85 01 01 00"

    @Test func activationReportsTheNTAG424Identity() throws {
        let tag = try Type4Emulator(chip: .ntag424, uid: type4UID)
        let detected = try #require(tag.activate())
        #expect(detected == DetectedTag(uid: type4UID, atqa: 0x0344, sak: 0x20, ats: try hex("06 77 77 71 02 80")))
        #expect(tag.tagChip == TagChip(family: "type4", id: "ntag424", displayName: "NTAG 424 DNA"))
        #expect(tag.state == .protocolActive)
        let generic = try Type4Emulator(chip: .genericDefault, uid: type4UID)
        #expect(generic.activate()?.atqa == 0x0044)
    }

    @Test func frameWaitingIntegerRewritesTB1() throws {
        var configuration = Type4EmulatorConfiguration()
        #expect(configuration.frameWaitingInteger == 7)
        configuration.frameWaitingInteger = 6
        #expect(configuration.ats == (try hex("06 77 77 61 02 80")))
        #expect(configuration.startupFrameGuardInteger == 1)
        #expect(configuration.cardFrameSize == 128)
        configuration.ats = try hex("02 05")
        configuration.frameWaitingInteger = 9
        #expect(configuration.ats == (try hex("02 05")))
        #expect(configuration.frameWaitingInteger == 4)
        #expect(configuration.cardFrameSize == 64)
    }

    @Test func fieldOffAndHaltClearTheSelection() throws {
        let tag = try activeType4Tag()
        _ = try tag.send(Self.selectApp)
        _ = try tag.send("00 A4 00 0C 02 E1 04")
        tag.fieldOff()
        #expect(tag.exchange(try hex("00 B0 00 00 02")) == .silence)
        #expect(tag.activate() != nil)
        #expect(try tag.send("00 B0 00 00 02") == hex("69 85"))
        _ = try tag.send(Self.selectApp)
        _ = try tag.send("00 A4 00 0C 02 E1 04")
        tag.halt()
        #expect(tag.state == .halt)
        #expect(tag.activate() != nil)
        #expect(try tag.send("00 B0 00 00 02") == hex("69 85"))
    }

    @Test func airtimeOfActivationAndExchangesFollowsISODEPTiming() throws {
        let tag = try Type4Emulator(chip: .ntag424, uid: type4UID)
        let timing = ISODEPTiming()
        _ = tag.activate()
        let activation = timing.activation(atsLength: 6, startupFrameGuardInteger: 1)
        #expect(abs(tag.airtimeMicroseconds - activation) < 0.001)
        var before = tag.airtimeMicroseconds
        _ = try tag.send(Self.selectApp)
        #expect(
            abs(tag.airtimeMicroseconds - before - timing.exchange(command: 13, response: 2, processing: 1_000)) < 0.001
        )
        _ = try tag.send("00 A4 00 0C 02 E1 04")
        before = tag.airtimeMicroseconds
        _ = try tag.send("00 B0 00 00 00")
        #expect(
            abs(tag.airtimeMicroseconds - before - timing.exchange(command: 5, response: 258, processing: 1_000))
                < 0.001)
        before = tag.airtimeMicroseconds
        let update = try hex("00 D6 00 00 F0") + [UInt8](repeating: 0x55, count: 240)
        #expect(tag.exchange(update) == .data([0x90, 0x00]))
        let expected = timing.exchange(command: 245, response: 2, processing: timing.processing(writeFrames: 2))
        #expect(abs(tag.airtimeMicroseconds - before - expected) < 0.001)
        #expect(tag.programmingMicroseconds == 4_000)
    }

    @Test func exchangesAreCountedFromOne() throws {
        let tag = try activeType4Tag()
        #expect(tag.exchangeCount == 0)
        _ = try tag.send(Self.selectApp)
        _ = try tag.send("00 A4 00 0C 02 E1 04")
        #expect(tag.exchangeCount == 2)
    }

    @Test func noAnswerExchangeIsSilentAndNotCarriedOut() throws {
        var faults = TagFaults()
        faults.noAnswerExchanges = [3]
        let tag = try activeType4Tag(faults: faults)
        _ = try tag.send(Self.selectApp)
        _ = try tag.send("00 A4 00 0C 02 E1 04")
        #expect(tag.exchange(try hex("00 D6 00 00 02 AA BB")) == .silence)
        #expect(tag.isPresent)
        #expect(try tag.send("00 B0 00 00 02") == hex("00 00 90 00"))
    }

    @Test func answerFaultsChangeTheAnswer() throws {
        var faults = TagFaults()
        faults.answerFaults = [1: .status(0x6A82), 2: .nak(0), 3: .garbage(3), 4: .short(1), 5: .long(2)]
        let tag = try activeType4Tag(faults: faults)
        #expect(try tag.send(Self.selectApp) == hex("6A 82"))
        #expect(tag.exchange(try hex("00 A4 00 0C 02 E1 04")) == .silence)
        #expect(tag.session.file == nil)
        #expect(try tag.send("00 A4 00 0C 02 E1 04").count == 3)
        #expect(tag.session.file == 0x02)
        #expect(try tag.send("00 B0 00 00 02") == hex("00 00 90"))
        #expect(try tag.send("00 B0 00 00 02") == hex("00 00 90 00 EE EE"))
        #expect(try tag.send("00 B0 00 00 02") == hex("00 00 90 00"))
    }

    @Test func statusFaultOnAType2TagIsTwoBytesOfGarbage() throws {
        var faults = TagFaults()
        faults.answerFaults = [1: .status(0x6982)]
        let tag = try NTAGEmulator(chip: .ntag213, uid: exampleUID, faults: faults)
        _ = tag.activate()
        #expect(tag.exchange([0x30, 0x04]) == .data([0x69, 0x82]))
        #expect(tag.exchange([0x30, 0x04]) != .data([0x69, 0x82]))
    }

    /// UPDATE BINARY of 255 bytes at offset 0 of a generic NDEF file: 260 APDU bytes in I-blocks of 125,
    /// 125 and 10, carrying 120, 125 and 10 data bytes.
    @Test(arguments: [(0, 0), (1, 120), (2, 245), (3, 255)])
    func tearOfAChainedUpdateKeepsTheFramesDelivered(frames: Int, written: Int) throws {
        var faults = TagFaults()
        faults.removedAfterExchanges = 2
        let tag = try activeType4Tag(.genericDefault, faults: faults)
        tag.tearAfterFrames = frames
        _ = try tag.send(Self.selectApp)
        _ = try tag.send("00 A4 00 0C 02 E1 04")
        let data = (0..<255).map { UInt8(truncatingIfNeeded: $0 + 1) }
        #expect(tag.exchange(try hex("00 D6 00 00 FF") + data) == .silence)
        #expect(!tag.isPresent)
        #expect(tag.exchange(try hex("00 B0 00 00 02")) == .silence)
        let ndef = Array(tag.image[15..<(15 + 255)])
        #expect(ndef == Array(data.prefix(written)) + [UInt8](repeating: 0, count: 255 - written))
    }

    @Test func tearOfASingleFrameUpdateIsOldOrNew() throws {
        var outcomes: Set<[UInt8]> = []
        for seed in UInt64(0)..<24 {
            var faults = TagFaults()
            faults.removedAfterExchanges = 2
            faults.seed = seed
            let tag = try activeType4Tag(faults: faults)
            _ = try tag.send(Self.selectApp)
            _ = try tag.send("00 A4 00 0C 02 E1 04")
            #expect(tag.exchange(try hex("00 D6 00 00 04 11 22 33 44")) == .silence)
            let stored = Array(tag.image[32..<36])
            #expect(stored == [0, 0, 0, 0] || stored == [0x11, 0x22, 0x33, 0x44])
            outcomes.insert(stored)
        }
        #expect(outcomes.count == 2)
    }

    @Test func theSameSeedTearsTheSameWay() throws {
        func stored(seed: UInt64) throws -> [UInt8] {
            var faults = TagFaults()
            faults.removedAfterExchanges = 2
            faults.seed = seed
            let tag = try activeType4Tag(.genericDefault)
            tag.represent(faults: faults)
            _ = tag.activate()
            _ = try tag.send(Self.selectApp)
            _ = try tag.send("00 A4 00 0C 02 E1 04")
            let data = [UInt8](repeating: 0x77, count: 255)
            _ = tag.exchange(try hex("00 D6 00 00 FF") + data)
            return Array(tag.image[15..<270])
        }
        for seed in UInt64(0)..<8 { #expect(try stored(seed: seed) == stored(seed: seed)) }
        let kept = try Set((UInt64(0)..<32).map { try stored(seed: $0).firstIndex(of: 0) ?? 255 })
        #expect(kept == [0, 120, 245, 255])
    }

    @Test func representBringsATornTagBack() throws {
        var faults = TagFaults()
        faults.removedAfterExchanges = 0
        let tag = try activeType4Tag(faults: faults)
        #expect(tag.exchange(try hex(Self.selectApp)) == .silence)
        #expect(tag.activate() == nil)
        tag.represent(faults: TagFaults())
        #expect(tag.activate() != nil)
        #expect(try tag.send(Self.selectApp) == hex("90 00"))
        #expect(tag.exchangeCount == 1)
    }
}
