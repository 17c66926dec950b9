import NDEF
import NFCTags
import TagEmulator
import Testing

/// `Type3FamilyTag` against the Lite-S emulator: detection, the tear-safe write order, read-back and the lock.
@Suite struct Type3TagOnEmulatorTests {
    static let idm = Hex.bytes("012E000000000002")!

    static func open(_ tag: FeliCaEmulator) -> (Type3FamilyTag, EmulatorTransceiver) {
        let transceiver = EmulatorTransceiver(tag: tag)
        let activation = tag.activate()
        let family = TagFamilies.standard.family(for: activation)
        #expect(family?.name == "type3")
        return (family!.open(transceiver, activation: activation) as! Type3FamilyTag, transceiver)
    }

    @Test func writeReadVerifyAndLock() throws {
        let emulator = FeliCaEmulator(idm: Self.idm)
        let (tag, _) = Self.open(emulator)
        #expect(try tag.identify() == Type3Family.liteS)
        let detected = try tag.detectNDEF()
        #expect(detected.status == .readWrite && detected.capacity == 208)
        let message = NDEFMessage(records: [.uri("https://example.com/" + String(repeating: "f", count: 40))]).bytes
        let result = try tag.writeNDEF(message)
        let blocks = (message.count + 15) / 16
        #expect(result.writtenPages == [0] + Array(1...blocks) + [0], "WriteF 0F first, Ln and WriteF 00 last")
        try tag.verify(result, ignoring: [])
        #expect(try tag.readNDEF() == message)
        #expect(try tag.writeNDEF(message).writtenPages == [], "nothing sent when the tag holds the message")
        try tag.writeLock()
        #expect(tag.lockState()?.isPermanent == true)
        #expect(emulator.memoryConfiguration.isPermanentlyReadOnly)
        #expect(tag.lockReadBack().map(\.unit) == [0x88, 0])
        let (again, _) = Self.open(emulator)
        #expect(try again.detectNDEF().status == .readOnly)
        #expect(try again.readNDEF() == message)
    }

    @Test func anUnformattedLiteSIsNotNDEF() throws {
        var faults = TagFaults()
        faults.unformatted = true
        let (tag, _) = Self.open(FeliCaEmulator(idm: Self.idm, faults: faults))
        #expect(try tag.queryNDEFStatus().status == .notSupported)
    }

    @Test func aLockIsRefusedBeforeWritingOnAChipWithoutMC() throws {
        let transceiver = EmulatorTransceiver(tag: FeliCaEmulator(idm: Self.idm))
        let activation = FeliCaActivation(idm: Self.idm, pmm: [0, 0x01, 0, 0, 0, 0x01, 0x43, 0])
        let tag = Type3FamilyTag(Type3Tag(transceiver: transceiver, activation: activation))
        #expect(try tag.identify() == Type3Family.standard)
        #expect(throws: TagError.self) { try tag.prepareWrite(hasCredentials: false, lock: true) }
    }
}

/// `Type3FamilyTag.format()` on a Lite-S without the NDEF system.
@Suite struct Type3FormatOnEmulatorTests {
    @Test func formatSetsSysOpAndWritesTheAttributeBlock() throws {
        var faults = TagFaults()
        faults.unformatted = true
        let emulator = FeliCaEmulator(idm: Type3TagOnEmulatorTests.idm, faults: faults)
        let (tag, _) = Type3TagOnEmulatorTests.open(emulator)
        #expect(try tag.queryNDEFStatus().status == .notSupported)
        try tag.format()
        #expect(emulator.memoryConfiguration.bytes == FeliCaMemoryConfiguration.formatted.bytes)
        #expect(emulator.blocks[0] == Hex.bytes("10 04 01 00 0D 00 00 00 00 00 01 00 00 00 00 23"))
        let detected = try tag.detectNDEF()
        #expect(detected.status == .readWrite && detected.capacity == 208)
    }

    @Test func aFrozenMCCannotBeChangedToNDEF() throws {
        var faults = TagFaults()
        faults.unformatted = true
        let emulator = FeliCaEmulator(idm: Type3TagOnEmulatorTests.idm, faults: faults)
        var mc = emulator.memoryConfiguration
        mc.bytes[2] = 0x00
        emulator.blocks[FeliCaLiteS.mc] = mc.bytes
        let (tag, _) = Type3TagOnEmulatorTests.open(emulator)
        #expect(throws: TagError.self) { try tag.format() }
    }
}
