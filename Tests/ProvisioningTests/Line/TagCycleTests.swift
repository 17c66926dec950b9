import NDEF
import NFCTags
import Provisioning
import TagEmulator
import TestSupport
import Testing

private func emulator(_ chip: ChipModel, faults: TagFaults = TagFaults()) throws -> EmulatorTransceiver {
    let tag = try NTAGEmulator(chip: chip, uid: [0x04, 0x51, 0x7C, 0xE1, 0xED, 0x25, 0x80], faults: faults)
    _ = try #require(tag.activate())
    return EmulatorTransceiver(tag: tag)
}

private func message(bytes count: Int) -> [UInt8] {
    // A URI record whose total encoded size is `count` bytes (short record: 4 header bytes + prefix code).
    NDEFMessage(records: [NDEFPayload.uri("https://" + String(repeating: "a", count: count - 5))]).bytes
}

@Test func cycleUsesTheMinimalExchangeSequenceOnAFactoryNTAG215() throws {
    let transceiver = try emulator(.ntag215)
    let bytes = message(bytes: 60)
    #expect(bytes.count == 60)
    let outcome = TagPipeline.run(.init(message: bytes, acceptedChips: [.ntag215], lock: true), on: transceiver)
    #expect(outcome.failure == nil)
    #expect(outcome.locked)
    // GET_VERSION, READ 82 (lock page, CFG0, CFG1), FAST_READ 00–04; TLV 03 3C + 60 bytes + FE = 63
    // bytes → 16 pages, plus the length page rewritten last = 17 WRITEs; re-activation + 1 FAST_READ;
    // lock: 3 WRITEs, re-activation, READ 02, READ of the lock page.
    let minimum = 3 + 17 + 2 + (3 + 1 + 2)
    #expect(outcome.exchanges == minimum)
    #expect((outcome.airtimeMicroseconds ?? 0) > 17 * 4_100)
}

@Test func identifyChecksTheConfigurationAndReadsTheHeaderInOneFastRead() throws {
    for (chip, lockPage, header) in [(ChipModel.ntag215, 0x82, 0x04), (.ntag213, 0x28, 0x05)] {
        let log = CommandLog(try emulator(chip))
        let outcome = TagPipeline.run(
            .init(message: message(bytes: 30), acceptedChips: [chip.tagChip], lock: true), on: log)
        #expect(outcome.failure == nil)
        #expect(Array(log.commands.prefix(3)) == [[0x60], [0x30, UInt8(lockPage)], [0x3A, 0x00, UInt8(header)]])
        #expect(log.commands[3].first == 0xA2, "the first WRITE follows at once: no READ 00, no READ 04")
        // Lock read-back after the re-activation: READ 02 and READ of the lock page.
        #expect(Array(log.commands.suffix(3)) == [[], [0x30, 0x02], [0x30, UInt8(lockPage)]])
    }
}

@Test func passwordProtectedTagWithoutAKeyIsRefusedBeforeAnyWrite() throws {
    let transceiver = try emulator(.ntag215)
    // CFG0 (page 83h) with AUTH0 = 10h: pages from 10h on need the password.
    _ = try transceiver.transceive([0xA2, 0x83, 0x04, 0x00, 0x00, 0x10], timeoutMilliseconds: 10)
    let outcome = TagPipeline.run(.init(message: message(bytes: 60), acceptedChips: [], lock: true), on: transceiver)
    #expect(outcome.failure?.failureClass == .readOnly)
    #expect(outcome.failure?.detail.contains("AUTH0") == true)
    #expect(outcome.failure?.phase == .identify)
    #expect(!outcome.wroteSomething)
    let tag = transceiver.tag as? NTAGEmulator
    #expect(tag?.storedPage(4) == [0x03, 0x00, 0xFE, 0x00], "the factory TLV is untouched")
}

/// Fails the `failing`-th command with `error`, passing every other frame through.
private final class FailingCommand: Transceiver {
    let inner: EmulatorTransceiver
    let failing: Int
    let error: TransportError
    var sent = 0
    init(_ inner: EmulatorTransceiver, failing: Int, error: TransportError) {
        self.inner = inner
        self.failing = failing
        self.error = error
    }
    func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        sent += 1
        if sent == failing { throw error }
        return try inner.transceive(command, timeoutMilliseconds: timeoutMilliseconds)
    }
    func reactivate() throws(TransportError) { try inner.reactivate() }
    var modelledAirtimeMicroseconds: Double? { inner.modelledAirtimeMicroseconds }
}

@Test func readProtectedConfigurationWithoutAKeyIsReadOnlyBeforeAnyWrite() throws {
    let transceiver = try emulator(.ntag215)
    // ACCESS (page 84h) PROT = 1, then CFG0 AUTH0 = 04h: the configuration pages refuse READ with NAK 0.
    _ = try transceiver.transceive([0xA2, 0x84, 0x80, 0x00, 0x00, 0x00], timeoutMilliseconds: 10)
    _ = try transceiver.transceive([0xA2, 0x83, 0x04, 0x00, 0x00, 0x04], timeoutMilliseconds: 10)
    try transceiver.reactivate()
    let outcome = TagPipeline.run(.init(message: message(bytes: 60), acceptedChips: [], lock: true), on: transceiver)
    #expect(outcome.failure?.failureClass == .readOnly)
    #expect(outcome.failure?.detail.contains("refuse READ") == true)
    #expect(!outcome.wroteSomething)
}

@Test(arguments: [
    (TransportError.transport("NFC_EIO (Input / Output Error)"), FailureClass.transport, "NFC_EIO"),
    (.nak(0x1), .nak, "NAK 1h"),
    (.noAnswer, .timeout, "no answer"),
])
func otherErrorsOnTheConfigurationReadKeepTheirClass(error: TransportError, expected: FailureClass, detail: String)
    throws
{
    // Command 2 is the READ of the lock page: only NAK 0h there means a password-protected tag.
    let outcome = TagPipeline.run(
        .init(message: message(bytes: 60), acceptedChips: [], lock: true),
        on: FailingCommand(try emulator(.ntag215), failing: 2, error: error))
    #expect(outcome.failure?.failureClass == expected)
    #expect(outcome.failure?.detail.contains(detail) == true, "\(outcome.failure?.detail ?? "")")
    #expect(!outcome.wroteSomething)
}

@Test func dynamicLockBitsOverTheNDEFAreaMakeTheTagReadOnlyBeforeAnyWrite() throws {
    let transceiver = try emulator(.ntag215)
    // LOCK2 bit 0 locks pages 10h–1Fh of an NTAG215 (16 pages a bit).
    _ = try transceiver.transceive([0xA2, 0x82, 0x01, 0x00, 0x00, 0x00], timeoutMilliseconds: 10)
    let outcome = TagPipeline.run(.init(message: message(bytes: 60), acceptedChips: [], lock: false), on: transceiver)
    #expect(outcome.failure?.failureClass == .readOnly)
    #expect(!outcome.wroteSomething)
}

@Test func tooLargeMessageIsACapacityFailureAndNothingIsWritten() throws {
    let transceiver = try emulator(.ntag213)
    let outcome = TagPipeline.run(.init(message: message(bytes: 200), acceptedChips: [], lock: false), on: transceiver)
    #expect(outcome.failure?.failureClass == .capacity)
    #expect(outcome.failure?.detail.contains("137") == true)
    #expect(!outcome.wroteSomething)
}

@Test func wrongChipIsRefusedBeforeAnyWrite() throws {
    let transceiver = try emulator(.ntag213)
    let outcome = TagPipeline.run(
        .init(message: message(bytes: 40), acceptedChips: [.ntag215], lock: false), on: transceiver)
    #expect(outcome.failure?.failureClass == .wrongChip)
    #expect(outcome.failure?.detail.contains("NTAG213") == true)
    #expect(!outcome.wroteSomething)
}

@Test func readOnlyTagIsRefusedUnlessItAlreadyHoldsTheLockedMessage() throws {
    let bytes = message(bytes: 40)
    let transceiver = try emulator(.ntag215)
    #expect(TagPipeline.run(.init(message: bytes, acceptedChips: [], lock: true), on: transceiver).failure == nil)
    try transceiver.reactivate()
    // A crash after the lock but before the commit: the same message on a locked tag completes.
    let resumed = TagPipeline.run(
        .init(message: bytes, acceptedChips: [], lock: true, reactivateFirst: true), on: transceiver)
    #expect(resumed.failure == nil && resumed.alreadyWritten && resumed.locked)
    // Another message on that locked tag is readOnly.
    let other = TagPipeline.run(
        .init(message: message(bytes: 41), acceptedChips: [], lock: true, reactivateFirst: true), on: transceiver)
    #expect(other.failure?.failureClass == .readOnly)
}

@Test func eepromErrorIsANAKWithItsCode() throws {
    var faults = TagFaults()
    faults.eepromErrorPages = [6]
    let transceiver = try emulator(.ntag215, faults: faults)
    let outcome = TagPipeline.run(.init(message: message(bytes: 60), acceptedChips: [], lock: false), on: transceiver)
    #expect(outcome.failure?.failureClass == .nak)
    #expect(outcome.failure?.detail.hasPrefix("NAK 5h") == true)
    #expect(outcome.failure?.phase == .write)
}
