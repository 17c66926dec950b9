import NDEF
import NFCTags
import TagEmulator
import TestSupport
import Testing

/// Records every frame a `Type2Tag` sends while passing it to the emulator.
private final class RecordingTransceiver: Transceiver {
    let inner: EmulatorTransceiver
    private(set) var sent: [[UInt8]] = []

    init(_ inner: EmulatorTransceiver) { self.inner = inner }

    func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        sent.append(command)
        return try inner.transceive(command, timeoutMilliseconds: timeoutMilliseconds)
    }

    func reactivate() throws(TransportError) {
        sent.append([])
        try inner.reactivate()
    }

    var modelledAirtimeMicroseconds: Double? { inner.modelledAirtimeMicroseconds }
}

/// The NFCTags Type 2 operations against the chip emulator: the reader and the chip model must agree.
@Suite struct Type2TagOnEmulatorTests {
    static let uid: [UInt8] = [0x04, 0x51, 0x7C, 0xE1, 0xED, 0x25, 0x80]
    static let exampleURI: [UInt8] = [0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("example.com".utf8)

    private static func session(_ emulator: NTAGEmulator) -> (RecordingTransceiver, Type2Tag) {
        _ = emulator.activate()
        let transceiver = RecordingTransceiver(EmulatorTransceiver(tag: emulator))
        return (transceiver, Type2Tag(transceiver: transceiver))
    }

    @Test func goldenTraceAgainstTheEmulatedNTAG213() throws {
        let emulator = try NTAGEmulator(chip: .ntag213, uid: Self.uid)
        let (transceiver, tag) = Self.session(emulator)
        #expect(try tag.identify().chip == .ntag213)
        #expect(try tag.queryNDEFStatus() == (.readWrite, 137))
        let result = try tag.writeNDEF(Self.exampleURI)
        try tag.verify(result)
        let writes = transceiver.sent.filter { $0.first == 0xA2 }
        #expect(
            writes == [
                [0xA2, 0x05, 0x34, 0x03, 0x00, 0xD1], [0xA2, 0x06, 0x01, 0x0C, 0x55, 0x04],
                [0xA2, 0x07, 0x65, 0x78, 0x61, 0x6D], [0xA2, 0x08, 0x70, 0x6C, 0x65, 0x2E],
                [0xA2, 0x09, 0x63, 0x6F, 0x6D, 0xFE], [0xA2, 0x05, 0x34, 0x03, 0x10, 0xD1],
            ])
        #expect(!transceiver.sent.contains([0x30, 0x08]))
        #expect(tag.operations.allSatisfy { ($0.airtimeMicroseconds ?? 0) > 0 })
        let (_, fresh) = Self.session(emulator)
        #expect(try fresh.readNDEF() == Self.exampleURI)
    }

    @Test(arguments: [(ChipModel.ntag213, 137), (.ntag215, 492), (.ntag216, 868)])
    func fullCapacityMessageRoundTrips(chip: ChipModel, capacity: Int) throws {
        let emulator = try NTAGEmulator(chip: chip, uid: Self.uid)
        let (_, tag) = Self.session(emulator)
        try tag.identify()
        #expect(try tag.detectNDEF().capacity == capacity)
        let message = (0..<capacity).map { UInt8($0 % 253 + 1) }
        try tag.verify(try tag.writeNDEF(message))
        #expect(type2Error { try tag.writeNDEF(message + [0x00]) } == .capacity)
        let (_, fresh) = Self.session(emulator)
        try fresh.identify()
        #expect(try fresh.readNDEF() == message)
    }

    @Test func rewriteOnlyTouchesChangedPages() throws {
        let emulator = try NTAGEmulator(chip: .ntag215, uid: Self.uid)
        let first = (0..<300).map { UInt8($0 % 251) }
        do {
            let (_, tag) = Self.session(emulator)
            try tag.identify()
            try tag.verify(try tag.writeNDEF(first))
        }
        var second = first
        second[150] ^= 0xFF
        let (_, tag) = Self.session(emulator)
        try tag.identify()
        let result = try tag.writeNDEF(second)
        // length 0, the one changed page, the real length.
        #expect(result.writtenPages.count == 3)
        try tag.verify(result)
        let (_, fresh) = Self.session(emulator)
        try fresh.identify()
        #expect(try fresh.readNDEF() == second)
    }

    @Test(arguments: [ChipModel.ntag213, .ntag215, .ntag216])
    func lockThenWriteIsReadOnly(chip: ChipModel) throws {
        let emulator = try NTAGEmulator(chip: chip, uid: Self.uid)
        let (_, tag) = Self.session(emulator)
        try tag.identify()
        try tag.verify(try tag.writeNDEF(Self.exampleURI))
        try tag.writeLock(configLock: true)
        let (transceiver, fresh) = Self.session(emulator)
        try fresh.identify()
        _ = try fresh.readConfiguration()
        #expect(try fresh.queryNDEFStatus().status == .readOnly)
        #expect(type2Error { try fresh.writeNDEF([0xD0, 0x00, 0x00]) } == .readOnly)
        #expect(!transceiver.sent.contains { $0.first == 0xA2 })
        // The chip itself refuses a raw WRITE to a user page above 16.
        #expect(throws: TransportError.nak(0)) { try fresh.write(page: 0x20, data: [1, 2, 3, 4]) }
    }

    @Test func blankEV1IsIdentifiedButNotNDEF() throws {
        let emulator = try NTAGEmulator(chip: .mf0ul21, uid: Self.uid)
        let (_, tag) = Self.session(emulator)
        #expect(try tag.identify().chip == .mf0ul21)
        #expect(try tag.queryNDEFStatus() == (.notSupported, 0))
    }

    private func type2Error(_ body: () throws -> Void) -> Type2Error.Code? {
        do {
            try body()
            return nil
        } catch let error as Type2Error {
            return error.code
        } catch {
            return nil
        }
    }
}

/// The Core NFC-shaped `ReaderNDEFTag` on the simulated reader (`sim:` spec).
@Suite struct ReaderNDEFTagOnSimulatorTests {
    @Test(arguments: ["sim:ntag213", "sim:ntag215", "sim:ntag216"])
    func writeReadLockOnTheSimulatedReader(spec: String) async throws {
        let reader = try SimulatedReader(spec: ReaderSpec(spec))
        guard case .tag(let detected) = try await reader.poll(timeoutMilliseconds: 100) else {
            Issue.record("no tag presented")
            return
        }
        let tag = try await ReaderNDEFTag.connect(to: reader, identifier: detected.uid)
        #expect(tag.identity?.isGeneric == false)
        #expect(try await tag.queryNDEFStatus().0 == .readWrite)
        let message = NDEFMessage(records: [.uri("https://example.com/a"), try .text("hello", languageCode: "en")])
        try await tag.writeNDEF(message)
        #expect(try await tag.readNDEF() == message)
        try await tag.writeLock()
        #expect(try await tag.queryNDEFStatus().0 == .readOnly)
        await #expect(throws: Type2Error(.readOnly, "")) { try await tag.writeNDEF(message) }
    }
}
