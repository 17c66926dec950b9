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
        #expect(reading.chip == ChipModel.ntag215.tagChip)
        #expect(reading.isLockedReadOnly)
        #expect(reading.lock == LockState(isPermanent: true, fields: "CC3 0F, static lock bytes FF FF"))
        #expect(reading.exchanges == 3, "GET_VERSION, READ 00, READ 04")
        #expect(emulator.image == before)
    }

    @Test func identityIsCheckedOnTheREAD00ItSendsAnyway() throws {
        let message = NDEFMessage(records: [NDEFPayload.uri("https://a.b/c")]).bytes
        let genuine = try TagReadBack.read(
            on: EmulatorTransceiver(tag: try tag(message: message)), anticollisionUID: uid)
        #expect(genuine.identityAnomalies.isEmpty)
        var faults = TagFaults()
        faults.identity = .int
        let clone = try tag(message: message, faults: faults)
        let reading = try TagReadBack.read(on: EmulatorTransceiver(tag: clone), anticollisionUID: uid)
        #expect(reading.identityAnomalies == [UIDAnomaly.internalByte(0x00).description])
        #expect(reading.message == message)
        #expect(reading.exchanges == 3 && genuine.exchanges == 3, "GET_VERSION, READ 00, READ 04: nothing more")
        let other: [UInt8] = [0x04, 0x51, 0x7C, 0x00, 0x00, 0x00, 0x01]
        let differs = try TagReadBack.read(
            on: EmulatorTransceiver(tag: try tag(message: message)), anticollisionUID: other)
        #expect(differs.identityAnomalies.count == 1)
        #expect(
            try TagReadBack.read(on: EmulatorTransceiver(tag: clone)).identityAnomalies.isEmpty,
            "no UID given: not checked")
    }

    @Test func longMessageAddsOneFastRead() throws {
        let message = NDEFMessage(records: [
            NDEFPayload.uri("https://example.com/" + String(repeating: "x", count: 150))
        ]).bytes
        let emulator = try tag(message: message)
        let before = emulator.image
        let reading = try TagReadBack.read(on: EmulatorTransceiver(tag: emulator))
        #expect(reading.message == message)
        #expect(!reading.isLockedReadOnly)
        #expect(reading.lock?.openReasons.first == "CC3 is 00 (write access open)")
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
        #expect(reading.lock?.fields.hasSuffix("static lock bytes 00 00") == true, "page 2 was read even so")
        #expect(!reading.isLockedReadOnly)
    }
}

/// A written NTAG215 whose pages from 04h need `password` for reads and writes (PROT 1, AUTH0 04h),
/// set directly with WRITEs in the safe order (`docs/reference/type2.md` §3.9).
private func protectedTag(_ message: [UInt8], password: TagPassword, auth0: UInt8 = 0x04) throws -> NTAGEmulator {
    let emulator = try tag(message: message)
    let writer = Type2Tag(transceiver: EmulatorTransceiver(tag: emulator))
    try writer.identify()
    try writer.write(page: 0x85, data: password.pwd)
    try writer.write(page: 0x86, data: password.pack + [0x00, 0x00])
    try writer.write(page: 0x84, data: [0x85, 0x05, 0x00, 0x00])
    try writer.write(page: 0x83, data: [0x04, 0x00, 0x00, auth0])
    emulator.halt()
    #expect(emulator.activate() != nil)
    return emulator
}

@Suite struct TagReadBackProtectedTests {
    let message = NDEFMessage(records: [NDEFPayload.uri("https://a.b/p")]).bytes
    let key = SecretKey(id: "brand", bytes: Array(0..<32))

    @Test func derivedPasswordUnlocksReadProtectedPages() throws {
        let password = try TagPassword(key: key, uid: uid)
        let emulator = try protectedTag(message, password: password)
        let before = emulator.image
        let reading = try TagReadBack.read(on: EmulatorTransceiver(tag: emulator), password: password)
        #expect(reading.authenticated && reading.authenticationRefused == nil)
        #expect(reading.message == message)
        #expect(reading.exchanges == 4, "GET_VERSION, PWD_AUTH, READ 00, READ 04")
        #expect(emulator.image == before)
        #expect(emulator.hiddenState.authenticationFailures == 0)
    }

    @Test func withoutThePasswordTheMessageIsUnreadable() throws {
        let emulator = try protectedTag(message, password: TagPassword(key: key, uid: uid))
        let reading = try TagReadBack.read(on: EmulatorTransceiver(tag: emulator))
        #expect(reading.message == nil && !reading.authenticated)
        #expect(reading.unreadable?.contains("NAK") == true, "\(reading.unreadable ?? "")")
    }

    @Test func anotherKeysPasswordIsRefusedAndCountsTowardAuthlim() throws {
        let emulator = try protectedTag(message, password: TagPassword(key: key, uid: uid))
        let wrong = try TagPassword(key: SecretKey(id: "brand", bytes: Array(repeating: 0x77, count: 32)), uid: uid)
        let reading = try TagReadBack.read(on: EmulatorTransceiver(tag: emulator), password: wrong)
        #expect(reading.message == nil && !reading.authenticated)
        #expect(reading.authenticationRefused?.contains("PWD_AUTH refused") == true)
        #expect(reading.exchanges == 2, "GET_VERSION and PWD_AUTH only")
        #expect(emulator.hiddenState.authenticationFailures == 1)
    }

    @Test func configurationTakesOneMoreReadAndKeepsNoPassword() throws {
        let password = try TagPassword(key: key, uid: uid)
        let emulator = try protectedTag(message, password: password)
        let before = emulator.image
        let reading = try TagReadBack.read(
            on: EmulatorTransceiver(tag: emulator), password: password, configuration: true)
        #expect(reading.message == message)
        #expect(reading.exchanges == 5, "GET_VERSION, PWD_AUTH, READ 00, READ 04, FAST_READ 82–84")
        #expect((reading.configuration as? Type2ChipConfiguration)?.pages.cfg0 == [0x04, 0x00, 0x00, 0x04])
        #expect((reading.configuration as? Type2ChipConfiguration)?.pages.cfg1 == [0x85, 0x05, 0x00, 0x00])
        #expect(reading.configurationUnreadable == nil)
        #expect(!"\(reading)".contains(Hex.compact(password.pwd)) && !"\(reading)".contains(Hex.string(password.pwd)))
        #expect(emulator.image == before)
    }

    /// Read-protected from the dynamic lock page or CFG1 on: the message reads without the password,
    /// the configuration is refused — never taken from a READ that rolled over to page 0 at AUTH0.
    @Test(arguments: [UInt8(0x82), 0x84])
    func refusedConfigurationReadIsUnreadableNotThrown(auth0: UInt8) throws {
        let emulator = try protectedTag(message, password: TagPassword(key: key, uid: uid), auth0: auth0)
        let reading = try TagReadBack.read(on: EmulatorTransceiver(tag: emulator), configuration: true)
        #expect(reading.message == message && reading.unreadable == nil)
        #expect(reading.configuration == nil, "\(String(describing: reading.configuration))")
        #expect(reading.configurationUnreadable?.contains("NAK 0h to the read of the configuration pages") == true)
    }
}
