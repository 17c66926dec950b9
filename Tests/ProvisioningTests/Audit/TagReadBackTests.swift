import NDEF
import NFCTags
import Provisioning
import TagEmulator
import Testing

private let uid: [UInt8] = [0x04, 0x51, 0x7C, 0xE1, 0xED, 0x25, 0x80]

/// An activated NTAG215 emulator, optionally holding `message` and locked.
private func tag(message: [UInt8]?, lock: Bool = false, faults: TagFaults = .init()) throws -> NTAGEmulator {
    let emulator = try NTAGEmulator(chip: .ntag215, uid: uid, faults: faults)
    #expect(emulator.activate() != nil)
    if let message {
        let writer = Type2Tag(transceiver: EmulatorTransceiver(tag: emulator))
        try writer.identify()
        try writer.writeNDEF(message)
        if lock { try writer.writeLock() }
        emulator.halt()
        #expect(emulator.activate() != nil)
    }
    return emulator
}

@Suite struct TagReadBackTests {
    @Test func shortMessageTakesThreeExchangesAndWritesNothing() throws {
        let message = NDEFMessage(records: [NDEFPayload.uri("https://a.b/c")]).bytes
        let emulator = try tag(message: message, lock: true)
        let before = emulator.image
        let reading = try TagReadBack.read(on: EmulatorTransceiver(tag: emulator))
        #expect(reading.message == message)
        #expect(reading.unreadable == nil)
        #expect(reading.chip == .ntag215)
        #expect(reading.isLockedReadOnly)
        #expect(reading.cc3 == 0x0F)
        #expect(reading.staticLock == [0xFF, 0xFF])
        #expect(reading.exchanges == 3, "GET_VERSION, READ 00, READ 04")
        #expect(emulator.image == before)
    }

    @Test func longMessageAddsOneFastRead() throws {
        let message = NDEFMessage(records: [NDEFPayload.uri("https://example.com/" + String(repeating: "x", count: 150))]).bytes
        let emulator = try tag(message: message)
        let before = emulator.image
        let reading = try TagReadBack.read(on: EmulatorTransceiver(tag: emulator))
        #expect(reading.message == message)
        #expect(!reading.isLockedReadOnly)
        #expect(reading.cc3 == 0x00)
        #expect(reading.exchanges == 4, "GET_VERSION, READ 00, READ 04, FAST_READ")
        #expect(emulator.image == before)
    }

    @Test func unformattedTagIsUnreadableNotThrown() throws {
        var faults = TagFaults()
        faults.unformatted = true
        let emulator = try tag(message: nil, faults: faults)
        let reading = try TagReadBack.read(on: EmulatorTransceiver(tag: emulator))
        #expect(reading.message == nil)
        #expect(reading.unreadable?.contains("not NDEF formatted") == true)
        #expect(reading.staticLock == [0x00, 0x00], "page 2 was read even so")
        #expect(!reading.isLockedReadOnly)
    }
}
