import NDEF
import NFCTags
import Provisioning
import TagEmulator
import TestSupport
import Testing

/// One Type 4 tear configuration: the chip, and the message the job writes over an older one.
struct Type4TearCase: Sendable, CustomStringConvertible {
    var name: String
    var chip: Type4EmulatedChip
    /// Bytes before the NDEF file's length field in the image (the CC file, which comes first).
    var ccSize: Int
    /// NLEN (2) or ENLEN (4).
    var lengthField: Int
    var urlLength: Int

    var message: [UInt8] {
        NDEFMessage(records: [.uri("https://example.com/" + String(repeating: "t", count: urlLength))]).bytes
    }
    var oldMessage: [UInt8] { NDEFMessage(records: [.uri("https://old.example/x")]).bytes }
    var description: String { name }

    static let all = [
        // ~100-byte URL on the NTAG 424 DNA: one UPDATE BINARY of the body, NLEN last.
        Type4TearCase(name: "ntag424-100", chip: .ntag424, ccSize: 32, lengthField: 2, urlLength: 80),
        // MLc 246 over a 128-byte FSC: the body's UPDATEs are chained over two I-blocks and can end half-written.
        Type4TearCase(name: "generic-chained", chip: .genericDefault, ccSize: 15, lengthField: 2, urlLength: 400),
        // Mapping 3.0 with MLc 13: many small pieces, ENLEN.
        Type4TearCase(
            name: "generic-3.0-small", chip: .generic(mapping: 0x30, ndefFileSize: 600, mle: 15, mlc: 13),
            ccSize: 17, lengthField: 4, urlLength: 60),
    ]

    /// What the NDEF file holds: the old message, none (length 0), the new one, or anything else.
    func content(of image: [UInt8]) -> TagContent {
        let held = Type4Image.message(in: image, ccSize: ccSize, lengthField: lengthField)
        if held.isEmpty { return .empty }
        return held == message ? .new : held == oldMessage ? .old : .other
    }
}

/// Tears a Type 4 write after every APDU, and inside every chained APDU after each I-block: the tag
/// always holds the old message, none or the new one, the pipeline reports success only after a
/// byte-exact read-back, and the torn tag presented again completes.
@Suite struct Type4TearTests {
    static let uid: [UInt8] = [0x04, 0x7E, 0x40, 0x00, 0x00, 0x00, 0x01]

    /// A tag holding `message`, written by a fault-free pipeline.
    static func tag(holding message: [UInt8], chip: Type4EmulatedChip) throws -> Type4Emulator {
        let tag = try Type4Emulator(chip: chip, uid: uid)
        let activation = tag.activate()
        let plan = TagPipeline.Plan(message: message, acceptedChips: [], lock: false, uid: uid)
        let outcome = TagPipeline.run(plan, on: EmulatorTransceiver(tag: tag), activation: activation)
        #expect(outcome.failure == nil, "\(String(describing: outcome.failure))")
        return tag
    }

    static func write(_ message: [UInt8], on tag: Type4Emulator) -> (TagPipeline.Outcome, Int) {
        let transceiver = EmulatorTransceiver(tag: tag)
        let plan = TagPipeline.Plan(message: message, acceptedChips: [], lock: false, uid: uid)
        let outcome = TagPipeline.run(plan, on: transceiver, activation: tag.activate())
        return (outcome, transceiver.exchanges)
    }

    @Test(arguments: Type4TearCase.all)
    func tearAfterEveryAPDUAndFrameLeavesOldEmptyOrNewAndResumes(_ tearCase: Type4TearCase) throws {
        let old = tearCase.oldMessage
        let clean = try Self.tag(holding: old, chip: tearCase.chip)
        let (cleanOutcome, total) = Self.write(tearCase.message, on: clean)
        #expect(cleanOutcome.failure == nil && tearCase.content(of: clean.image) == .new)
        var seen: Set<TagContent> = []
        var outcomes: [String: Int] = [:]
        var violations: [String] = []
        for exchanges in 0..<total {
            for frames in 0...2 {
                let tag = try Self.tag(holding: old, chip: tearCase.chip)
                var faults = TagFaults()
                faults.removedAfterExchanges = exchanges
                tag.represent(faults: faults)
                tag.tearAfterFrames = frames
                let (outcome, _) = Self.write(tearCase.message, on: tag)
                let content = tearCase.content(of: tag.image)
                let label = "torn in APDU \(exchanges + 1) after \(frames) frame(s)"
                outcomes["\(content) / \(outcome.failure == nil ? "done" : "failed")", default: 0] += 1
                if ![.old, .empty, .new].contains(content) { violations.append("\(label): \(content)") }
                if outcome.failure == nil, content != .new { violations.append("\(label): success without it") }
                seen.insert(content)
                // The operator puts the tag back: the same row finishes on it.
                tag.represent(faults: TagFaults())
                tag.tearAfterFrames = nil
                let (resumed, _) = Self.write(tearCase.message, on: tag)
                if resumed.failure != nil || tearCase.content(of: tag.image) != .new {
                    violations.append("\(label), resumed: \(String(describing: resumed.failure))")
                }
            }
        }
        #expect(violations.isEmpty, "\(violations)")
        try ReliabilityFigures.write(
            "tear-type4-\(tearCase)",
            [
                "case": "type4 \(tearCase)", "exchangesPerCycle": total, "tearPoints": total * 3,
                "messageBytes": tearCase.message.count, "outcomes": outcomes, "violations": violations,
            ])
        #expect(seen == [.old, .empty, .new], "tears land before, inside and after the write: \(seen)")
    }
}
