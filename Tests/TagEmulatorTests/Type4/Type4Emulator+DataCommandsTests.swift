import NFCTags
import Testing

@testable import TagEmulator

/// ReadData/WriteData and the access rights of the ISO and native file commands on the emulated NTAG 424 DNA
/// (`docs/reference/type4.md` §1.8, §2.6, §5.3).
@Suite struct Type4EmulatorDataCommandsTests {
    static func pattern(_ count: Int, _ seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 * 5 + seed) }
    }

    @Test(arguments: [
        ("90 AD 00 00 07 02 000000 040000 00", "00 00 00 00 91 00"),
        ("90 AD 00 00 07 02 FE0000 000000 00", "00 00 91 00"),
        ("90 AD 00 00 07 02 FF0000 020000 00", "91 BE"),
        ("90 AD 00 00 07 02 000100 000000 00", "91 BE"),
        ("90 AD 00 00 07 03 000000 000000 00", "91 AE"),
        ("90 AD 00 00 07 04 000000 000000 00", "91 F0"),
        ("90 AD 00 00 06 02 000000 0000 00", "91 7E"),
        ("90 AD 00 00 08 02 000000 000000 00 00", "91 7E"),
        ("90 8D 00 00 0B 02 100000 040000 CAFEBABE 00", "91 00"),
        ("90 8D 00 00 0A 02 100000 040000 CAFEBA 00", "91 7E"),
        ("90 8D 00 00 07 02 100000 000000 00", "91 7E"),
        ("90 8D 00 00 0B 02 FE0000 040000 CAFEBABE 00", "91 BE"),
        ("90 8D 00 00 0B 03 000000 040000 CAFEBABE 00", "91 AE"),
        ("90 8D 00 00 0B 01 000000 040000 CAFEBABE 00", "91 AE"),
    ])
    func unauthenticatedDataCommands(apdu: String, answer: String) throws {
        let tag = try activeNTAG424()
        #expect(try tag.send(apdu) == hex(answer))
    }

    @Test func writeDataWritesAndFullLengthReadsTheWholeFile() throws {
        let tag = try activeNTAG424()
        #expect(try tag.send("90 8D 00 00 0B 02 100000 040000 CAFEBABE 00") == hex("91 00"))
        let whole = try tag.send("90 AD 00 00 07 02 000000 000000 00")
        #expect(whole.count == 256 + 2 && whole[16..<20] == [0xCA, 0xFE, 0xBA, 0xBE])
        #expect(try tag.send("00 B0 82 10 04") == hex("CA FE BA BE 90 00"))
    }

    @Test func rightsFOnlyArePermissionDenied() throws {
        let tag = try activeNTAG424()
        try tag.setFileSettings(
            Type4FileSettings(communicationMode: .full, accessRights: 0xFFF0), ofFile: 3)
        #expect(try tag.send("90 AD 00 00 07 03 000000 010000 00") == hex("91 9D"))
        #expect(try tag.send("90 8D 00 00 08 03 000000 010000 00 00") == hex("91 9D"))
    }

    @Test func keyRightsUseTheFilesModeAndFreeRightsArePlain() throws {
        let tag = try activeNTAG424()
        let host = try hostNTAG424(tag)
        let data = Self.pattern(100, 3)
        try host.authenticateEV2First(keyNumber: 3, key: AN12196.zeroKey)
        try host.writeData(3, offset: 8, data, mode: .full)
        #expect(try host.readData(3, offset: 8, length: 100, mode: .full) == data, "RW key 3")
        #expect(tag.application.files[2].bytes[8..<108] == data[...])
        try host.authenticateEV2First(keyNumber: 2, key: AN12196.zeroKey)
        #expect(try host.readData(3, offset: 0, length: 0, mode: .full).count == 128, "Read key 2")
        #expect(try host.readData(2, offset: 0, length: 8, mode: .plain) == [UInt8](repeating: 0, count: 8))
        #expect(tag.messaging?.commandCounter == 2 && host.session == tag.messaging)
        #expect(throws: NTAG424Error(status: 0x917E, instruction: 0xAD)) {
            try host.readData(2, offset: 0, length: 8, mode: .mac)
        }
        try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        #expect(throws: NTAG424Error(status: 0x91AE, instruction: 0xAD)) {
            try host.readData(3, offset: 0, length: 1, mode: .full)
        }
        #expect(tag.session.authentication == nil)
    }

    @Test func macModeFile() throws {
        let tag = try activeNTAG424()
        try tag.setFileSettings(Type4FileSettings(communicationMode: .mac, accessRights: 0x2330), ofFile: 3)
        let host = try hostNTAG424(tag)
        try host.authenticateEV2First(keyNumber: 3, key: AN12196.zeroKey)
        try host.writeData(3, offset: 0, [0x01, 0x02, 0x03], mode: .mac)
        #expect(try host.readData(3, offset: 0, length: 3, mode: .mac) == [0x01, 0x02, 0x03])
        #expect(tag.messaging?.commandCounter == 2)
    }

    @Test func isoCommandsNeedFreeRightsEvenWhenAuthenticated() throws {
        let tag = try activeNTAG424()
        #expect(try tag.send("00 B0 83 00 01") == hex("69 82"), "file 03 Read key 2")
        #expect(try tag.send("00 D6 81 00 01 00") == hex("69 82"), "file 01 Write key 0")
        let host = try hostNTAG424(tag)
        try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        #expect(try tag.send("00 D6 81 00 01 00") == hex("69 82"))
        #expect(try tag.send("00 B0 81 00 02") == hex("00 17 90 00"))
        #expect(try tag.send("00 D6 82 00 02 00 03") == hex("90 00"))
        #expect(tag.messaging?.commandCounter == 0)
    }

    /// A chained WriteData torn after `frames` I-blocks (FSC 128: 125 INF bytes each) writes the data those
    /// frames carried: 113 bytes after the APDU and command headers.
    @Test(arguments: [(0, 0), (1, 113), (2, 200)])
    func aTornChainedWriteDataWritesFrameByFrame(frames: Int, written: Int) throws {
        let tag = try activeNTAG424()
        let host = try hostNTAG424(tag)
        let data = Self.pattern(200, 9)
        tag.faults.removedAfterExchanges = tag.exchangeCount
        tag.tearAfterFrames = frames
        #expect(throws: TransportError.tagLost) { try host.writeData(2, offset: 0, data, mode: .plain) }
        let stored = tag.application.files[1].bytes
        #expect(stored.prefix(written) == data.prefix(written))
        #expect(stored[written..<200].allSatisfy { $0 == 0 })
    }

    /// In full mode the whole 16-byte blocks that arrived are deciphered and written (113 cryptogram bytes:
    /// 7 blocks, 112 bytes).
    @Test func aTornFullModeWriteDataWritesTheBlocksThatArrived() throws {
        let tag = try activeNTAG424()
        let host = try hostNTAG424(tag)
        try host.authenticateEV2First(keyNumber: 3, key: AN12196.zeroKey)
        let data = Self.pattern(128, 1)
        tag.faults.removedAfterExchanges = tag.exchangeCount
        tag.tearAfterFrames = 1
        #expect(throws: TransportError.tagLost) { try host.writeData(3, offset: 0, data, mode: .full) }
        let stored = tag.application.files[2].bytes
        #expect(stored.prefix(112) == data.prefix(112))
        #expect(stored[112...].allSatisfy { $0 == 0 })
    }
}
