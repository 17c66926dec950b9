import NDEF
import NFCTags
import Provisioning
import TagEmulator
import TestSupport
import Testing

/// One Type 5 tear configuration: the chip, the message the job writes over an older one, and the lock.
struct Type5TearCase: Sendable, CustomStringConvertible {
    var name: String
    var chip: Type5EmulatedChip
    var uid: [UInt8]
    var urlLength: Int
    var lock: Bool

    var message: [UInt8] {
        NDEFMessage(records: [.uri("https://example.com/" + String(repeating: "t", count: urlLength))]).bytes
    }
    var oldMessage: [UInt8] { NDEFMessage(records: [.uri("https://old.example/x")]).bytes }
    var description: String { name }

    static let all = [
        // ~100-byte URL on an ICODE SLIX (the issue's benchmark message), 1-byte L.
        Type5TearCase(
            name: "icode-slix-100", chip: .icodeSLIX, uid: [0xE0, 0x04, 0x01, 0x50, 0, 0, 0, 1], urlLength: 80,
            lock: false),
        // The same, locked after writing: tears land inside the CC write and the Lock Blocks too.
        Type5TearCase(
            name: "icode-slix-100-lock", chip: .icodeSLIX, uid: [0xE0, 0x04, 0x01, 0x50, 0, 0, 0, 2], urlLength: 80,
            lock: true),
        // A 3-byte L on an ICODE SLIX2 (message over 254 bytes).
        Type5TearCase(
            name: "icode-slix2-long", chip: .icodeSLIX2, uid: [0xE0, 0x04, 0x01, 0x08, 0, 0, 0, 1], urlLength: 270,
            lock: false),
    ]

    /// What the T5T area holds: the old message, none (L = 0), the new one, or anything else.
    func content(of image: [UInt8]) -> TagContent {
        guard let held = try? NDEFTLV.extractMessage(fromArea: Array(image[4..<chip.memoryBytes])) else {
            return .unreadable
        }
        if held.isEmpty { return .empty }
        return held == message ? .new : held == oldMessage ? .old : .other
    }
}

/// Tears a Type 5 write after every request, the torn block keeping its old or its new content (both seeds):
/// the tag always holds the old message, none or the new one, the pipeline reports success only after a
/// byte-exact read-back, and the torn tag presented again completes (`docs/reference/type5.md` §2.4).
@Suite struct Type5TearTests {
    /// A tag holding `message`, written by a fault-free pipeline.
    static func tag(holding message: [UInt8], _ tearCase: Type5TearCase) -> Type5Emulator {
        let tag = Type5Emulator(chip: tearCase.chip, uid: tearCase.uid)
        let plan = TagPipeline.Plan(message: message, acceptedChips: [], lock: false, uid: tearCase.uid)
        let outcome = TagPipeline.run(plan, on: EmulatorTransceiver(tag: tag), activation: tag.activate())
        #expect(outcome.failure == nil, "\(String(describing: outcome.failure))")
        return tag
    }

    static func write(_ tearCase: Type5TearCase, on tag: Type5Emulator) -> (TagPipeline.Outcome, Int) {
        let transceiver = EmulatorTransceiver(tag: tag)
        let plan = TagPipeline.Plan(
            message: tearCase.message, acceptedChips: [], lock: tearCase.lock, uid: tearCase.uid)
        let outcome = TagPipeline.run(plan, on: transceiver, activation: tag.activate())
        return (outcome, transceiver.exchanges)
    }

    @Test(arguments: Type5TearCase.all)
    func tearAfterEveryRequestLeavesOldEmptyOrNewAndResumes(_ tearCase: Type5TearCase) throws {
        let clean = Self.tag(holding: tearCase.oldMessage, tearCase)
        let (cleanOutcome, total) = Self.write(tearCase, on: clean)
        #expect(cleanOutcome.failure == nil && tearCase.content(of: clean.image) == .new)
        #expect(!tearCase.lock || clean.locked.prefix(3).allSatisfy { $0 })
        var seen: Set<TagContent> = []
        var outcomes: [String: Int] = [:]
        var violations: [String] = []
        for exchanges in 0..<total {
            for seed in UInt64(0)..<2 {
                let tag = Self.tag(holding: tearCase.oldMessage, tearCase)
                var faults = TagFaults()
                faults.removedAfterExchanges = exchanges
                faults.seed = seed
                tag.represent(faults: faults)
                let (outcome, _) = Self.write(tearCase, on: tag)
                let content = tearCase.content(of: tag.image)
                let label = "torn in request \(exchanges + 1) (seed \(seed))"
                outcomes["\(content) / \(outcome.failure == nil ? "done" : "failed")", default: 0] += 1
                if ![.old, .empty, .new].contains(content) { violations.append("\(label): \(content)") }
                if outcome.failure == nil, content != .new { violations.append("\(label): success without it") }
                seen.insert(content)
                // The operator puts the tag back: the same row finishes on it.
                tag.represent(faults: TagFaults())
                let (resumed, _) = Self.write(tearCase, on: tag)
                if resumed.failure != nil || tearCase.content(of: tag.image) != .new {
                    violations.append("\(label), resumed: \(String(describing: resumed.failure))")
                }
                if tearCase.lock, !tag.locked.prefix(3).allSatisfy({ $0 }) {
                    violations.append("\(label), resumed: not locked")
                }
            }
        }
        #expect(violations.isEmpty, "\(violations)")
        try ReliabilityFigures.write(
            "tear-type5-\(tearCase)",
            [
                "case": "type5 \(tearCase)", "exchangesPerCycle": total, "tearPoints": total * 2,
                "messageBytes": tearCase.message.count, "outcomes": outcomes, "violations": violations,
            ])
        #expect(seen == [.old, .empty, .new], "tears land before, inside and after the write: \(seen)")
    }
}
