import NDEF
import NFCTags
import TagEmulator
import Testing

/// The FeliCa Lite-S emulator frame by frame (`docs/reference/type3.md` §1.2, §2.4), hex both ways.
@Suite struct FeliCaEmulatorTests {
    static let idm = Hex.bytes("012E000000000001")!
    static let pmm = "00F1000000014300"

    func send(_ tag: FeliCaEmulator, _ hex: String) -> TagAnswer { tag.exchange(Hex.bytes(hex)!) }

    @Test func pollingAnswersFFFF88B4And12FCWhileNDEFIsOn() {
        let tag = FeliCaEmulator(idm: Self.idm)
        #expect(send(tag, "06 00 12 FC 00 00") == .data(Hex.bytes("12 01 012E000000000001 \(Self.pmm)")!))
        #expect(send(tag, "06 00 FF FF 01 00") == .data(Hex.bytes("14 01 012E000000000001 \(Self.pmm) 88B4")!))
        #expect(send(tag, "06 00 FE 00 00 00") == .silence)
        let activation = tag.activate()?.felica
        #expect(activation?.idm == Self.idm && activation?.systemCode == 0x12FC, "detection polls 12FC first")
        var faults = TagFaults()
        faults.unformatted = true
        let blank = FeliCaEmulator(idm: Self.idm, faults: faults)
        #expect(send(blank, "06 00 12 FC 00 00") == .silence)
        let airtime = blank.airtimeMicroseconds
        #expect(blank.activate()?.felica?.systemCode == 0x88B4, "no NDEF system: then FFFF")
        let request = FeliCaTiming.frameMicroseconds(len: 6)
        let answered = request + 2417 + FeliCaTiming.frameMicroseconds(len: 0x14)
        #expect(abs(blank.airtimeMicroseconds - airtime - (request + 2417 + 1208) - answered) < 0.01, "12FC unanswered")
    }

    @Test func readOfTheAttributeBlockAndMC() {
        let tag = FeliCaEmulator(idm: Self.idm)
        let answer = send(tag, "12 06 012E000000000001 01 0B00 02 8000 8088")
        let expected =
            "2D 07 012E000000000001 00 00 02 1004 0100 0D00 0000 0000 0100 0000 0023"
            + " FFFFFF01 07000000 00000000 00000000"
        #expect(answer == .data(Hex.bytes(expected)!))
        #expect(
            send(tag, "10 06 012E000000000001 01 0B00 01 8020") == .data(Hex.bytes("0C 07 012E000000000001 01 A8")!))
        #expect(send(tag, "10 06 0102030405060708 01 0B00 01 8000") == .silence, "another IDm")
        #expect(send(tag, "0A 04 012E000000000001") == .silence, "Request Response: a Lite-S lacks it")
        #expect(send(tag, "11 06 012E000000000001 01 0B00 01 8000") == .silence, "LEN is not the frame length")
    }

    @Test func writesFollowMCAndCountInWCNT() {
        let tag = FeliCaEmulator(idm: Self.idm)
        let data = String(repeating: "AB", count: 16)
        let ok = Hex.bytes("0C 09 012E000000000001 00 00")!
        #expect(send(tag, "20 08 012E000000000001 01 0900 01 8001 \(data)") == .data(ok))
        #expect(tag.blocks[1] == [UInt8](repeating: 0xAB, count: 16))
        #expect(tag.blocks[FeliCaLiteS.wcnt]?.prefix(3) == [0x01, 0x00, 0x00])
        #expect(send(tag, "20 08 012E000000000001 01 0B00 01 8001 \(data)") != .data(ok), "000B is read-only")
        let locked = FeliCaMemoryConfiguration.formatted.locked.bytes.map { Hex.byte($0) }.joined()
        #expect(send(tag, "20 08 012E000000000001 01 0900 01 8088 \(locked)") == .data(ok))
        let refused = Hex.bytes("0C 09 012E000000000001 01 A5")!
        #expect(send(tag, "20 08 012E000000000001 01 0900 01 8001 \(data)") == .data(refused), "S_PAD1 locked")
        #expect(send(tag, "20 08 012E000000000001 01 0900 01 8088 \(data)") == .data(refused), "MC frozen")
    }

    @Test func theImageRoundTripsAndATearKeepsABlockWhole() throws {
        let tag = FeliCaEmulator(idm: Self.idm)
        _ = send(tag, "20 08 012E000000000001 01 0900 01 8002 " + String(repeating: "11", count: 16))
        let copy = try FeliCaEmulator(image: tag.image, idm: Self.idm)
        #expect(copy.image == tag.image && copy.image.count == FeliCaEmulator.imageSize)
        var faults = TagFaults()
        faults.removedAfterExchanges = 0
        tag.represent(faults: faults)
        #expect(send(tag, "20 08 012E000000000001 01 0900 01 8002 " + String(repeating: "22", count: 16)) == .silence)
        #expect(!tag.isPresent)
        #expect([[UInt8](repeating: 0x11, count: 16), [UInt8](repeating: 0x22, count: 16)].contains(tag.blocks[2]!))
    }

    @Test func airtimeAt212kbits() {
        let tag = FeliCaEmulator(idm: Self.idm)
        _ = tag.activate()
        // Request 0.60 ms, slot 0 at 2.417 ms, answer with RC=1 1.13 ms.
        #expect(abs(tag.airtimeMicroseconds - (604.16 + 2417 + 1132.8)) < 0.1)
        let before = tag.airtimeMicroseconds
        _ = send(tag, "20 08 012E000000000001 01 0900 01 8001 " + String(repeating: "00", count: 16))
        // Request 1.59 ms, answer 0.83 ms, the assumed 3 ms programming (below the PMm bound of 6.04 ms).
        #expect(abs(tag.airtimeMicroseconds - before - (1585.92 + 830.72 + 3000)) < 0.1)
    }

    @Test func simSpecsNameTheChip() throws {
        let options = try SimulationOptions("sim:felica-lite-s?count=2&refused=01B2&wcnt=off")
        #expect(options.chipName == "felica-lite-s" && options.type3Configuration.refusedWriteStatus == [0x01, 0xB2])
        #expect(try SimulationOptions("sim:type3").chipName == "type3")
        #expect(throws: ReaderSpecError.self) { try SimulationOptions("sim:ntag215?wcnt=off") }
        #expect(throws: ReaderSpecError.self) { try SimulationOptions("sim:type3?config=next") }
    }
}
