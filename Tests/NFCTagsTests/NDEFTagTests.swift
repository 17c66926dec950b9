import NDEF
import NFCTags
import TestSupport
import Testing

/// A `TagReader` that lends one scripted transceiver, for the Core NFC-shaped layer.
actor ScriptedReader: TagReader {
    nonisolated let name = "scripted"
    nonisolated let capabilities = ReaderCapabilities()
    private let transceiver: ScriptedTransceiver

    init(_ steps: [ScriptedTransceiver.Step]) { transceiver = ScriptedTransceiver(steps) }

    func poll(timeoutMilliseconds: Int) async throws(TransportError) -> FieldState {
        .tag(DetectedTag(uid: Images.goldenUID))
    }

    func withTransceiver<Result: Sendable>(_ body: @Sendable (any Transceiver) throws -> Result) async throws -> Result
    {
        try body(transceiver)
    }

    func release(waitingForRemovalMilliseconds timeoutMilliseconds: Int) async throws(TransportError) -> Bool { true }

    /// Mismatched frames and steps left.
    func leftovers() -> (mismatches: Int, remaining: Int) {
        (transceiver.mismatches.count, transceiver.remaining.count)
    }
}

/// `NDEFTag` over a reader (`docs/reference/type2.md` §5, Core NFC shape).
@Suite struct NDEFTagTests {
    @Test func fullCycleOnAFactoryNTAG213() async throws {
        var image = Images.factory(.ntag213)
        let uri = Type2TagWriteTests.exampleURI
        var steps: [ScriptedTransceiver.Step] = [.exchange([0x60], ChipModel.ntag213.version)]
        steps += Images.detectionSteps(image)  // queryNDEFStatus
        steps += Images.detectionSteps(image)  // writeNDEF
        steps += [
            .ack([0xA2, 0x05, 0x34, 0x03, 0x00, 0xD1]), .ack([0xA2, 0x06, 0x01, 0x0C, 0x55, 0x04]),
            .ack([0xA2, 0x07, 0x65, 0x78, 0x61, 0x6D]), .ack([0xA2, 0x08, 0x70, 0x6C, 0x65, 0x2E]),
            .ack([0xA2, 0x09, 0x63, 0x6F, 0x6D, 0xFE]), .ack([0xA2, 0x05, 0x34, 0x03, 0x10, 0xD1]),
        ]
        Images.set(&image, address: 20, [0x34, 0x03, 0x10] + uri + [0xFE])
        steps += [.reactivation, .exchange([0x3A, 0x05, 0x09], Images.fastRead(image, 5, 9))]
        steps += Images.detectionSteps(image) + [.exchange([0x3A, 0x08, 0x09], Images.fastRead(image, 8, 9))]
        var locked = image
        locked[10] = 0xFF
        locked[11] = 0xFF
        locked[15] = 0x0F
        Images.set(&locked, page: 0x28, [0xFF, 0x0F, 0x3F, 0xBD])
        steps += [
            .exchange([0x30, 0x02], Images.read(image, 2)),
            .ack([0xA2, 0x03, 0xE1, 0x10, 0x12, 0x0F]), .ack([0xA2, 0x02, 0x00, 0x00, 0xFF, 0xFF]),
            .ack([0xA2, 0x28, 0xFF, 0x0F, 0x3F, 0x00]), .reactivation,
            .exchange([0x30, 0x02], Images.read(locked, 2)), .exchange([0x30, 0x28], Images.read(locked, 0x28)),
        ]
        steps += Images.detectionSteps(locked)
        let reader = ScriptedReader(steps)
        let tag: any NDEFTag = try await ReaderNDEFTag.connect(to: reader, identifier: Images.goldenUID)
        #expect(tag.identifier == Images.goldenUID)
        let (status, capacity) = try await tag.queryNDEFStatus()
        #expect(status == .readWrite && capacity == 137)
        let message = try NDEFMessage(bytes: uri)
        try await tag.writeNDEF(message)
        #expect(try await tag.readNDEF() == message)
        try await tag.writeLock()
        #expect(try await tag.queryNDEFStatus().0 == .readOnly)
        let left = await reader.leftovers()
        #expect(left.mismatches == 0 && left.remaining == 0)
    }

    @Test func emptyTLVIsNotAMessage() async throws {
        let reader = ScriptedReader(Images.detectionSteps(Images.factory(.ntag215)))
        let tag = ReaderNDEFTag(
            reader: reader, identifier: Images.goldenUID, identity: Type2Identity(chip: .ntag215))
        await #expect(throws: Type2Error(.notNDEF, "")) { _ = try await tag.readNDEF() }
        let left = await reader.leftovers()
        #expect(left.mismatches == 0 && left.remaining == 0)
    }
}

/// `FamilyNDEFTag`: the same Core NFC-shaped API for a tag of any family, here the in-memory one.
@Suite struct FamilyNDEFTagTests {
    static let families = TagFamilies([MemoryFamily(), Type2Family()])
    static let uid: [UInt8] = [0x02, 0x4D, 0x45, 0x4D, 0x00, 0x00, 0x11]

    @Test func writeReadAndLockAMemoryTagThroughItsFamily() async throws {
        let tag = MemoryTag(uid: Self.uid)
        let reader = MemoryTagReader(tags: [tag])
        _ = try await reader.poll(timeoutMilliseconds: 0)
        let activation = DetectedTag(uid: Self.uid, atqa: 0x0044, sak: MemoryFamily.sak)
        let view = FamilyNDEFTag(reader: reader, activation: activation, families: Self.families)
        #expect(view.identifier == Self.uid)
        let status = try await view.queryNDEFStatus()
        #expect(status.0 == .readWrite && status.capacity == 256)
        await #expect(throws: TagError.self) { _ = try await view.readNDEF() }

        let message = NDEFMessage(records: [NDEFPayload.uri("https://example.com/family")])
        try await view.writeNDEF(message)
        #expect(tag.message == message.bytes)
        #expect(try await view.readNDEF().bytes == message.bytes)

        try await view.writeLock()
        #expect(tag.isLocked)
        #expect(try await view.queryNDEFStatus().0 == .readOnly)
    }

    @Test func aTagNoFamilyHandlesIsAWrongChip() async throws {
        let reader = MemoryTagReader(tags: [MemoryTag(uid: Self.uid)])
        _ = try await reader.poll(timeoutMilliseconds: 0)
        let activation = DetectedTag(uid: Self.uid, atqa: 0x0044, sak: MemoryFamily.sak)
        let view = FamilyNDEFTag(reader: reader, activation: activation, families: TagFamilies([]))
        await #expect(throws: TagError(.wrongChip, "")) { _ = try await view.queryNDEFStatus() }
    }
}
