import NFCTags
import TagEmulator
import Testing

/// The host's `Type4Tag` (NFCTags/Type4) driving the emulator through a test-only transceiver.
@Suite struct Type4TagOnEmulatorTests {
    /// A message of `count` bytes (the Type 4 procedures do not parse it): a pattern started at `fill`.
    static func message(_ count: Int, fill: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 3 &+ Int(fill)) }
    }

    @Test(arguments: [Type4EmulatedChip.ntag424, .genericDefault])
    func writeThenReadBack(chip: Type4EmulatedChip) throws {
        let emulator = try activeType4Tag(chip)
        let host = Type4Tag(transceiver: Type4EmulatorTransceiver(emulator))
        let detected = try host.detectNDEF()
        #expect(detected.status == .readWrite)
        #expect(detected.capacity == (chip == .ntag424 ? 254 : 2046))
        let message = Self.message(chip == .ntag424 ? 200 : 700, fill: 0x41)
        let written = try host.writeNDEF(message)
        try host.verify(written)
        let reader = Type4Tag(transceiver: Type4EmulatorTransceiver(emulator))
        #expect(try reader.readNDEF() == message)
        #expect(host.total.airtimeMicroseconds ?? 0 > 0)
    }

    @Test func preLockedGenericTagIsReportedReadOnly() throws {
        var faults = TagFaults()
        faults.preLocked = true
        let emulator = try activeType4Tag(.genericDefault, faults: faults)
        let host = Type4Tag(transceiver: Type4EmulatorTransceiver(emulator))
        #expect(try host.detectNDEF().status == .readOnly)
        #expect(throws: TagError.self) { try host.writeNDEF(Self.message(20, fill: 0x42)) }
    }

    @Test func unformattedTagIsNotNDEF() throws {
        var faults = TagFaults()
        faults.unformatted = true
        let emulator = try activeType4Tag(faults: faults)
        let host = Type4Tag(transceiver: Type4EmulatorTransceiver(emulator))
        #expect(try host.detectNDEF().status == .notSupported)
    }

    /// Tears the tag at every APDU of a write (every UPDATE piece among them), with every frame count and
    /// a seeded one: a re-presented tag holds the old message, NLEN 0, or the new message.
    @Test(arguments: [Type4EmulatedChip.ntag424, .genericDefault])
    func tearAtEveryUpdatePieceLeavesOldEmptyOrNew(chip: Type4EmulatedChip) throws {
        let old = Self.message(chip == .ntag424 ? 150 : 500, fill: 0x4F)
        let new = Self.message(chip == .ntag424 ? 230 : 600, fill: 0x4E)
        var outcomes: Set<String> = []
        for frames in [0, 1, 2, nil] as [Int?] {
            var tornAt = 0
            while true {
                let emulator = try activeType4Tag(chip)
                let writer = Type4Tag(transceiver: Type4EmulatorTransceiver(emulator))
                _ = try writer.detectNDEF()
                _ = try writer.writeNDEF(old)
                var faults = TagFaults()
                faults.removedAfterExchanges = tornAt
                faults.seed = UInt64(tornAt)
                emulator.represent(faults: faults)
                emulator.tearAfterFrames = frames
                #expect(emulator.activate() != nil)
                let host = Type4Tag(transceiver: Type4EmulatorTransceiver(emulator))
                let finished = (try? host.detectNDEF()) != nil && (try? host.writeNDEF(new)) != nil
                emulator.represent(faults: TagFaults())
                #expect(emulator.activate() != nil)
                let reader = Type4Tag(transceiver: Type4EmulatorTransceiver(emulator))
                try reader.selectNDEFApplication()
                let container = try reader.readCapabilityContainer()
                let file = try reader.readNDEFFile(length: container.lengthFieldSize)
                if file.allSatisfy({ $0 == 0 }) {
                    outcomes.insert("empty")
                } else {
                    let stored = try reader.readNDEF()
                    #expect(
                        stored == old || stored == new,
                        "torn after \(tornAt) APDUs, \(String(describing: frames)) frames")
                    outcomes.insert(stored == old ? "old" : "new")
                }
                if finished { break }
                tornAt += 1
            }
            #expect(tornAt >= 4)
        }
        #expect(outcomes == ["old", "empty", "new"])
    }
}

extension Type4Tag {
    /// The NDEF file's first `length` bytes (the length field), read with the public READ BINARY.
    func readNDEFFile(length: Int) throws -> [UInt8] {
        try selectFile(0xE104)
        return try readBinary(offset: 0, count: length)
    }
}
