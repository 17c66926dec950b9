import NDEF
import NFCTags
import Provisioning
import TagEmulator
import Testing

/// Tears a Type 3 write after every frame: the Lite-S always holds the old message, an empty one (Ln 0 or
/// WriteF `0F`, which readers treat as invalid) or the new one; the pipeline reports success only after the
/// read-back, and the torn tag presented again finishes.
@Suite struct Type3TearTests {
    static let idm: [UInt8] = [0x01, 0x2E, 0x40, 0x00, 0x00, 0x00, 0x00, 0x01]
    static let message = NDEFMessage(records: [.uri("https://example.com/" + String(repeating: "t", count: 80))]).bytes
    static let old = NDEFMessage(records: [.uri("https://old.example/x")]).bytes

    static func write(_ message: [UInt8], on tag: FeliCaEmulator, lock: Bool = false) -> (TagPipeline.Outcome, Int) {
        let transceiver = EmulatorTransceiver(tag: tag)
        let plan = TagPipeline.Plan(message: message, acceptedChips: [], lock: lock, uid: idm)
        let outcome = TagPipeline.run(plan, on: transceiver, activation: tag.activate())
        return (outcome, transceiver.exchanges)
    }

    /// What the image's NDEF area holds.
    static func content(_ tag: FeliCaEmulator) -> TagContent {
        guard let block = try? Type3AttributeBlock(tag.blocks[0]!) else { return .other }
        if block.isWriting || block.length == 0 { return .empty }
        let held = Array((1...(block.length + 15) / 16).flatMap { tag.blocks[$0]! }.prefix(block.length))
        return held == message ? .new : held == old ? .old : .other
    }

    @Test func tearAfterEveryFrameLeavesOldEmptyOrNewAndResumes() throws {
        let clean = FeliCaEmulator(idm: Self.idm)
        #expect(Self.write(Self.old, on: clean).0.failure == nil)
        let (cleanOutcome, total) = Self.write(Self.message, on: clean, lock: true)
        #expect(cleanOutcome.failure == nil && Self.content(clean) == .new)
        var seen: Set<TagContent> = []
        var violations: [String] = []
        for exchanges in 0..<total {
            let tag = FeliCaEmulator(idm: Self.idm)
            _ = Self.write(Self.old, on: tag)
            var faults = TagFaults()
            faults.removedAfterExchanges = exchanges
            faults.seed = UInt64(exchanges)
            tag.represent(faults: faults)
            let (outcome, _) = Self.write(Self.message, on: tag, lock: true)
            let content = Self.content(tag)
            if ![.old, .empty, .new].contains(content) { violations.append("frame \(exchanges + 1): \(content)") }
            if outcome.failure == nil { violations.append("frame \(exchanges + 1): success despite the tear") }
            seen.insert(content)
            tag.represent(faults: TagFaults())
            let (resumed, _) = Self.write(Self.message, on: tag, lock: true)
            if resumed.failure != nil || Self.content(tag) != .new || !tag.memoryConfiguration.isPermanentlyReadOnly {
                violations.append("frame \(exchanges + 1), resumed: \(String(describing: resumed.failure))")
            }
        }
        #expect(violations.isEmpty, "\(violations)")
        #expect(seen == [.old, .empty, .new], "tears land before, inside and after the write: \(seen)")
    }
}
