import Crypto
import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import TagEmulator
import TestSupport
import Testing

/// One tear-test configuration: chip, message size and lock.
struct TearCase: Sendable, CustomStringConvertible {
    var chip: ChipModel
    var long: Bool
    var lock: Bool

    /// NTAG213 holds 144 bytes of TLV area, so its "long" message is a 127-byte one that nearly fills it
    /// rather than ≥ 255; NTAG215/216 get a 320-byte message (long record, 3-byte TLV length form).
    var message: [UInt8] {
        let size = !long ? 12 : (chip == .ntag213 ? 110 : 300)
        return NDEFMessage(records: [NDEFPayload.uri("https://example.com/" + String(repeating: "n", count: size))])
            .bytes
    }

    /// What the tag holds before the job (so "old" is told apart from "empty").
    var oldMessage: [UInt8] { NDEFMessage(records: [NDEFPayload.uri("https://old.example/x")]).bytes }

    var description: String { "\(chip.rawValue)-\(long ? "long" : "short")-\(lock ? "lock" : "nolock")" }

    static let all: [TearCase] = [ChipModel.ntag213, .ntag215, .ntag216].flatMap { chip in
        [false, true].flatMap { long in [false, true].map { TearCase(chip: chip, long: long, lock: $0) } }
    }
}

/// What the tag's NDEF area holds, by comparison with the old and new messages.
enum TagContent: String, Sendable, Hashable {
    case old, empty, new, other, unreadable
}

func content(of image: [UInt8], chip: ChipModel, old: [UInt8], new: [UInt8]) -> TagContent {
    let area = Array(image[16..<(16 + chip.userBytes)])
    guard let message = try? NDEFTLV.extractMessage(fromArea: area) else { return .unreadable }
    if message == new { return .new }
    if message == old { return .old }
    return message.isEmpty ? .empty : .other
}

/// A tag image holding `message` (written by a fault-free cycle on a factory tag).
func imageHolding(_ message: [UInt8], chip: ChipModel, uid: [UInt8]) throws -> [UInt8] {
    let tag = try NTAGEmulator(chip: chip, uid: uid)
    _ = tag.activate()
    let outcome = TagPipeline.run(
        .init(message: message, acceptedChips: [chip.tagChip], lock: false), on: EmulatorTransceiver(tag: tag))
    #expect(outcome.failure == nil)
    return tag.image
}

/// The job renders the same message for every row (the tear test compares bytes).
func fixedJob(_ name: String, _ tearCase: TearCase) -> LineJob {
    let message = tearCase.message
    return LineJob(name: name, acceptedChips: [tearCase.chip.tagChip], lock: tearCase.lock, tries: 2, onFailure: .reuse)
    {
        _, _, _, _ in
        message
    }
}

func oneRowLedger(_ path: String, jobs: [String]) async throws -> Ledger {
    let ledger = try await Ledger.open(path: path)
    for job in jobs {
        try await ledger.registerJob(name: job, manifestHash: "m", templateHash: "t")
        try await ledger.addRows(job: job, rows: [RowInput(row: 1, fields: [:], messageSHA256: [], messageLength: 0)])
    }
    return ledger
}

/// Tears the whole line cycle (claim → identify → write → verify → lock → commit) after every exchange.
@Suite(.serialized) struct TearTests {
    @Test(arguments: TearCase.all)
    func tearAfterEveryExchangeNeverLosesOrLiesAndThePresentedTagCompletes(_ tearCase: TearCase) async throws {
        let chip = tearCase.chip
        let folder = try Fixtures.temporaryDirectory("tear-\(tearCase)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A fault-free run counts the exchanges of the whole cycle.
        let baseUID: [UInt8] = [0x04, 0x7E, 0x00, 0x00, 0x00, 0x00, 0x00]
        let old = tearCase.oldMessage
        let new = tearCase.message
        let clean = try ScriptedTagReader(
            images: [(try imageHolding(old, chip: chip, uid: baseUID), chip)], script: [.init(index: 0)])
        let cleanLedger = try await oneRowLedger(folder.appendingPathComponent("clean.sqlite").path, jobs: ["c"])
        #expect(
            try await LineWorker(reader: clean, ledger: cleanLedger, job: fixedJob("c", tearCase)).run() == .jobComplete
        )
        let total = await clean.exchanges(0)
        #expect(total > 5)
        let jobs = (0...total).map { "k\($0)" }
        let ledger = try await oneRowLedger(folder.appendingPathComponent("tear.sqlite").path, jobs: jobs)
        var outcomes: [String: Int] = [:]
        var violations: [String] = []
        for k in 0...total {
            let uid = baseUID.dropLast() + [UInt8(k)]
            let reader = try ScriptedTagReader(
                images: [(try imageHolding(old, chip: chip, uid: Array(uid)), chip)],
                script: [
                    .init(
                        index: 0,
                        faults: {
                            var f = TagFaults()
                            f.removedAfterExchanges = k
                            f.seed = UInt64(k)
                            return f
                        }())
                ])
            let job = fixedJob("k\(k)", tearCase)
            _ = try await LineWorker(reader: reader, ledger: ledger, job: job).run()
            let torn = await reader.image(0)
            let held = content(of: torn, chip: chip, old: old, new: new)
            let state = try await ledger.counts(job: "k\(k)")
            let ledgerState =
                state.done == 1 ? "done" : state.claimed == 1 ? "claimed" : state.pending == 1 ? "pending" : "other"
            outcomes["\(held.rawValue)/\(ledgerState)", default: 0] += 1
            if held == .other || held == .unreadable { violations.append("k=\(k): tag holds \(held)") }
            if state.done == 1 && held != .new { violations.append("k=\(k): ledger done, tag holds \(held)") }
            if state.done == 1 && tearCase.lock && !NTAGEmulatorImage.isLocked(torn, chip: chip) {
                violations.append("k=\(k): ledger done, tag not locked")
            }
            // Present the torn tag again, fault-free: its row completes.
            let again = try ScriptedTagReader(images: [(torn, chip)], script: [.init(index: 0)])
            _ = try await LineWorker(reader: again, ledger: ledger, job: job).run()
            let final = try await ledger.counts(job: "k\(k)")
            let finalImage = await again.image(0)
            if final.done != 1 { violations.append("k=\(k): row not done after re-presenting (\(final))") }
            if tearCase.lock && !NTAGEmulatorImage.isLocked(finalImage, chip: chip) {
                violations.append("k=\(k): row done after re-presenting, tag not locked")
            }
            if content(of: finalImage, chip: chip, old: old, new: new) != .new {
                violations.append("k=\(k): re-presented tag does not hold the new message")
            }
            if let tag = try await ledger.tags(job: "k\(k)").first, tag.tag.uid != Array(uid) {
                violations.append("k=\(k): row finished by another UID")
            }
        }
        #expect(violations.isEmpty, "\(violations)")
        try ReliabilityFigures.write(
            "tear-\(tearCase)",
            [
                "case": tearCase.description, "exchangesPerCycle": total, "tearPoints": total + 1,
                "messageBytes": new.count,
                "outcomes": outcomes, "violations": violations,
            ])
    }
}

/// Lock state read straight from an image (`docs/reference/type2.md` §2: static lock bytes 2–3 of page 2, CC3).
enum NTAGEmulatorImage {
    static func isLocked(_ image: [UInt8], chip: ChipModel) -> Bool {
        image[10] == 0xFF && image[11] == 0xFF && image[15] == 0x0F
    }
}
