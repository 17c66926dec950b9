import NFCTags
import TagEmulator
import Testing

@Suite struct Type4EmulatorAirTests {
    /// REQA, both cascade levels and RATS with `rats` (hex without CRC); returns the tag.
    func protocolActiveTag(
        rats: String = "E0 80", configuration: Type4EmulatorConfiguration = .init(), faults: TagFaults = .init()
    ) throws -> Type4Emulator {
        let tag = try Type4Emulator(chip: .ntag424, uid: type4UID, configuration: configuration, faults: faults)
        #expect(try tag.air("26", crc: false, bits: 7) == hex("44 03"))
        #expect(try tag.air("93 20", crc: false) == hex("88 04 96 8C 96"))
        #expect(try tag.air("93 70 88 04 96 8C 96") == framed("04"))
        #expect(try tag.air("95 20", crc: false) == hex("AA 5C 5E 80 28"))
        #expect(try tag.air("95 70 AA 5C 5E 80 28") == framed("20"))
        #expect(tag.state == .active)
        #expect(try tag.air(rats) == framed("06 77 77 71 02 80"))
        #expect(tag.state == .protocolActive)
        return tag
    }

    @Test func anticollisionRATSAndNumberedIBlocks() throws {
        let tag = try protocolActiveTag()
        // RATS E0 80 is 31 73 with its CRC_A on the air.
        #expect(CRCA.appending(to: [0xE0, 0x80]) == (try hex("E0 80 31 73")))
        #expect(try tag.air("02 00 A4 04 00 07 D2 76 00 00 85 01 01 00") == framed("02 90 00"))
        #expect(try tag.air("03 00 A4 00 0C 02 E1 03") == framed("03 90 00"))
        #expect(try tag.air("02 00 B0 00 00 03") == framed("02 00 17 20 90 00"))
        #expect(tag.exchangeCount == 3)
    }

    @Test func badCRCAndWrongRATSAreIgnored() throws {
        let tag = try protocolActiveTag()
        #expect(tag.receiveRaw(try hex("02 00 A4 04 00 00 00"), lastByteBits: 8) == .silence)
        #expect(try tag.air("02 00 A4 00 0C 02 E1 03", crc: true) == framed("02 6A 82"))
    }

    @Test func ppsIsAcknowledgedWithItsPPSSByte() throws {
        let tag = try protocolActiveTag()
        #expect(try tag.air("D0 11 00") == framed("D0"))
        #expect(try tag.air("D1 11 00") == [])
        #expect(try tag.air("02 00 A4 04 00 07 D2 76 00 00 85 01 01 00") == framed("02 90 00"))
    }

    @Test func blocksWithANADAreIgnored() throws {
        let tag = try protocolActiveTag()
        #expect(try tag.air("06 00 00 A4 04 00 07 D2 76 00 00 85 01 01 00") == [])
        #expect(tag.exchangeCount == 0)
        #expect(try tag.air("02 00 A4 04 00 07 D2 76 00 00 85 01 01 00") == framed("02 90 00"))
    }

    @Test func presenceCheckWithRNAKIsAnsweredByRACK() throws {
        let tag = try protocolActiveTag()
        #expect(try tag.air("02 00 A4 04 00 07 D2 76 00 00 85 01 01 00") == framed("02 90 00"))
        // The reader's next block number is 1: R(NAK) B3 → R(ACK) with the tag's number 0.
        #expect(try tag.air("B3") == framed("A2"))
        // A NAK with the tag's own number asks for the last block again.
        #expect(try tag.air("B2") == framed("02 90 00"))
        #expect(tag.exchangeCount == 1)
    }

    @Test func tagChainsALongAnswerToTheFSD() throws {
        // FSDI 0: FSD 16, so 13 INF bytes per block.
        let tag = try protocolActiveTag(rats: "E0 00")
        #expect(try tag.air("02 00 A4 04 00 07 D2 76 00 00 85 01 01 00") == framed("02 90 00"))
        #expect(try tag.air("03 00 A4 00 0C 02 E1 03") == framed("03 90 00"))
        #expect(try tag.air("02 00 B0 00 00 0F") == framed("12 00 17 20 01 00 00 FF 04 06 E1 04 01 00"))
        #expect(try tag.air("A3") == framed("03 00 00 90 00"))
        // R(ACK) with the tag's number again resends the last block.
        #expect(try tag.air("A3") == framed("03 00 00 90 00"))
    }

    @Test func readerChainsALongCommandAndTheTagAcknowledges() throws {
        let tag = try protocolActiveTag()
        _ = try tag.air("02 00 A4 04 00 07 D2 76 00 00 85 01 01 00")
        _ = try tag.air("03 00 A4 00 0C 02 E1 04")
        let data = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let apdu = try hex("00 D6 00 00 C8") + data
        let first = [UInt8(0x12)] + apdu.prefix(125)
        #expect(tag.receiveRaw(CRCA.appending(to: first), lastByteBits: 8) == .data(try framed("A2")))
        let last = [UInt8(0x03)] + apdu.dropFirst(125)
        #expect(tag.receiveRaw(CRCA.appending(to: last), lastByteBits: 8) == .data(try framed("03 90 00")))
        #expect(Array(tag.image[32..<232]) == data)
        #expect(tag.exchangeCount == 3)
    }

    @Test func chainedRawExchangeAirtimeEqualsTheFormula() throws {
        let tag = try protocolActiveTag(rats: "E0 70")
        _ = try tag.air("02 00 A4 04 00 07 D2 76 00 00 85 01 01 00")
        _ = try tag.air("03 00 A4 00 0C 02 E1 04")
        let before = tag.airtimeMicroseconds
        _ = try tag.air("02 00 B0 00 00 00")
        _ = try tag.air("A3")
        _ = try tag.air("A2")
        let timing = ISODEPTiming(readerFrameSize: 128)
        let expected = timing.exchange(command: 5, response: 258, processing: 1_000)
        #expect(timing.responseBlocks(bytes: 258) == 3)
        #expect(abs(tag.airtimeMicroseconds - before - expected) < 0.001)
    }

    @Test func deselectIsEchoedThenTheTagHalts() throws {
        let tag = try protocolActiveTag()
        #expect(try tag.air("C2") == framed("C2"))
        #expect(tag.state == .halt)
        #expect(try tag.air("02 00 A4 04 00 07 D2 76 00 00 85 01 01 00") == [])
        #expect(try tag.air("26", crc: false, bits: 7) == [])
        #expect(try tag.air("52", crc: false, bits: 7) == hex("44 03"))
    }

    @Test func cidFromRATSIsCarriedBothWays() throws {
        let tag = try protocolActiveTag(rats: "E0 81")
        #expect(try tag.air("0A 01 00 A4 04 00 07 D2 76 00 00 85 01 01 00") == framed("0A 01 90 00"))
        #expect(try tag.air("0B 02 00 A4 00 0C 02 E1 04") == [])
        #expect(try tag.air("03 00 A4 00 0C 02 E1 04") == [])
        #expect(try tag.air("CA 01") == framed("CA 01"))
    }

    @Test func waitingTimeExtensionBeforeAWriteWhenConfigured() throws {
        var configuration = Type4EmulatorConfiguration()
        configuration.requestsWaitingTimeExtension = true
        let tag = try protocolActiveTag(configuration: configuration)
        _ = try tag.air("02 00 A4 04 00 07 D2 76 00 00 85 01 01 00")
        #expect(try tag.air("03 00 A4 00 0C 02 E1 04") == framed("03 90 00"))
        #expect(try tag.air("02 00 D6 00 00 02 AB CD") == framed("F2 01"))
        #expect(try tag.air("F2 01") == framed("02 90 00"))
        #expect(Array(tag.image[32..<34]) == [0xAB, 0xCD])
    }

    @Test func hltaAtLayerThreeHaltsTheTag() throws {
        let tag = try Type4Emulator(chip: .ntag424, uid: type4UID)
        _ = try tag.air("52", crc: false, bits: 7)
        _ = try tag.air("93 70 88 04 96 8C 96")
        _ = try tag.air("95 70 AA 5C 5E 80 28")
        #expect(tag.receiveRaw(try hex("50 00 57 CD"), lastByteBits: 8) == .silence)
        #expect(tag.state == .halt)
    }

    /// A chained UPDATE torn at every frame: the first k blocks' data bytes are written.
    @Test(arguments: [(0, 0), (1, 120), (2, 200)])
    func rawTearAtEveryFrameOfAChainedUpdate(kept: Int, written: Int) throws {
        var faults = TagFaults()
        faults.removedAfterExchanges = 2
        let tag = try protocolActiveTag(faults: faults)
        tag.tearAfterFrames = kept
        _ = try tag.air("02 00 A4 04 00 07 D2 76 00 00 85 01 01 00")
        _ = try tag.air("03 00 A4 00 0C 02 E1 04")
        let data = [UInt8](repeating: 0x5A, count: 200)
        let apdu = try hex("00 D6 00 00 C8") + data
        let first = tag.receiveRaw(CRCA.appending(to: [0x12] + apdu.prefix(125)), lastByteBits: 8)
        let last = tag.receiveRaw(CRCA.appending(to: [0x03] + apdu.dropFirst(125)), lastByteBits: 8)
        #expect(first == (kept == 0 ? .silence : .data(try framed("A2"))))
        #expect(last == .silence)
        #expect(!tag.isPresent)
        #expect(Array(tag.image[32..<232]) == Array(data.prefix(written)) + [UInt8](repeating: 0, count: 200 - written))
    }
}
