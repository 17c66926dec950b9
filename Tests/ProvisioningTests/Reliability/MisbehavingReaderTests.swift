import Crypto
import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import TagEmulator
import TestSupport
import Testing

/// Every corruption kind the suite applies at every exchange of a cycle.
private let corruptionKinds: [(String, @Sendable (Int) -> Corruption)] = {
    var kinds: [(String, @Sendable (Int) -> Corruption)] = [
        ("garbage 1 byte", { .garbage(count: 1, atExchange: $0) }),
        ("garbage 4 bytes", { .garbage(count: 4, atExchange: $0) }),
        ("garbage 16 bytes", { .garbage(count: 16, atExchange: $0) }),
        ("short by 1", { .short(drop: 1, atExchange: $0) }),
        ("short by 8", { .short(drop: 8, atExchange: $0) }),
        ("long by 1", { .long(extra: 1, atExchange: $0) }),
        ("long by 4", { .long(extra: 4, atExchange: $0) }),
        ("no answer", { .silence(atExchange: $0) }),
        ("reader gone", { .readerGone(atExchange: $0) }),
    ]
    for code in UInt8(0)...15 {
        kinds.append(("NAK \(String(code, radix: 16))h", { .nak(code: code, atExchange: $0) }))
    }
    return kinds
}()

/// The classes a corruption may end in when it hits an exchange (its own class, or what the corrupted
/// answer says about the tag: a garbled lock page reads as locked, a garbled GET_VERSION as another chip),
/// and the class that must show up in some case of the kind.
private func expectedClasses(_ kind: String) -> (allowed: Set<String>, primary: String) {
    let consequences: Set<String> = ["readOnly", "wrongChip"]
    if kind.hasPrefix("NAK") { return (consequences.union(["nak"]), "nak") }
    if kind == "no answer" { return (consequences.union(["timeout"]), "timeout") }
    if kind == "reader gone" { return (consequences.union(["transport"]), "transport") }
    let garbled: Set<String> = ["transport", "lockFailed", "verifyMismatch", "identityMismatch", "notNDEF"]
    return (consequences.union(garbled), "transport")
}

/// Two fresh UIDs per case (a UID done in one job is a duplicate in every other job of the ledger).
private func uids(_ kind: Int, _ exchange: Int) -> [[UInt8]] {
    (0..<2).map { [0x04, 0x3C, 0x00, UInt8(kind), UInt8(exchange), 0x01, UInt8($0)] }
}

/// A 2-row job whose message names the row, locking, one try per presentation.
private func twoRowJob(_ name: String) -> LineJob {
    LineJob(name: name, acceptedChips: [.ntag213], lock: true, tries: 1, onFailure: .reuse) { row, _, _, _ in
        NDEFMessage(records: [NDEFPayload.uri("https://example.com/r/\(row)")]).bytes
    }
}

/// Garbage, short and long answers, NAKs of every code, silence and a vanishing reader at every exchange:
/// each ends in a typed failure class, nothing crashes, the next tag proceeds, nothing is recorded wrong.
@Suite(.serialized) struct MisbehavingReaderTests {
    @Test func everyCorruptionAtEveryExchangeEndsInATypedFailureAndTheNextTagProceeds() async throws {
        let folder = try Fixtures.temporaryDirectory("misbehave")
        defer { try? FileManager.default.removeItem(at: folder) }
        let probeUID = uids(255, 0)[0]
        // A clean presentation counts the exchanges of one cycle.
        let probe = try ScriptedTagReader(
            images: [(try NTAGEmulator(chip: .ntag213, uid: probeUID).image, .ntag213)], script: [.init(index: 0)])
        let probeLedger = try await Self.ledger(folder, "probe", rows: 1)
        _ = try await LineWorker(reader: probe, ledger: probeLedger, job: twoRowJob("j")).run()
        let total = await probe.exchanges(0)
        var classes: [String: [String: Int]] = [:]
        var violations: [String] = []
        var cases = 0
        // `make test` tries every third exchange (each kind from another offset); `make reliability` (which sets
        // the output folder) every one. The output says which, so a sample is never taken for the whole.
        let step = ProcessInfo.processInfo.environment["PROVISION_RELIABILITY_OUT"] == nil ? 3 : 1
        defer {
            let sampling = step == 1 ? "every exchange" : "one exchange in \(step) (make reliability tries every one)"
            print("MisbehavingReaderTests: \(cases) cases: \(sampling) of \(total), \(corruptionKinds.count) kinds")
        }
        for (kindIndex, (kind, make)) in corruptionKinds.enumerated() {
            let ledger = try await Self.ledger(folder, kind, rows: 2, jobs: total)
            for exchange in stride(from: 1 + kindIndex % step, through: total, by: step) {
                cases += 1
                let job = twoRowJob("e\(exchange)")
                let uids = uids(kindIndex, exchange)
                let factory = try uids.map { try NTAGEmulator(chip: .ntag213, uid: $0).image }
                // Tag 0 misbehaves once, tag 1 follows clean, then tag 0 comes back clean.
                let reader = try ScriptedTagReader(
                    images: factory.map { ($0, .ntag213) },
                    script: [.init(index: 0, corruption: make(exchange)), .init(index: 1), .init(index: 0)])
                let stop = try await LineWorker(reader: reader, ledger: ledger, job: job).run()
                let attempts = try await ledger.attempts(job: job.name)
                let allowed = expectedClasses(kind).allowed
                for failed in attempts where failed.outcome == .failed {
                    let name = failed.failureClass ?? "untyped"
                    if !allowed.contains(name) {
                        violations.append("\(kind)@\(exchange): class \(name) is not what this corruption causes")
                    }
                    classes[kind, default: [:]][name, default: 0] += 1
                }
                if attempts.allSatisfy({ $0.outcome != .failed }) {
                    classes[kind, default: [:]]["absorbed", default: 0] += 1
                }
                let tags = try await ledger.tags(job: job.name)
                if !tags.contains(where: { $0.tag.uid == uids[1] }) {
                    violations.append("\(kind)@\(exchange): the next tag did not proceed (\(stop))")
                }
                for entry in tags {
                    guard let index = uids.firstIndex(of: entry.tag.uid) else { continue }
                    let image = await reader.image(index)
                    let message = try? NDEFTLV.extractMessage(fromArea: Array(image[16..<160]))
                    // The tag must hold its row's own message (not only what the ledger says it wrote).
                    let expected = NDEFMessage(records: [NDEFPayload.uri("https://example.com/r/\(entry.row)")]).bytes
                    if message != expected || message.map(Digest.sha256) != entry.tag.bytesSHA256 {
                        violations.append("\(kind)@\(exchange): row \(entry.row) done, tag holds another message")
                    }
                }
                if stop == .jobComplete, tags.count != 2 {
                    violations.append("\(kind)@\(exchange): complete with \(tags.count) tags")
                }
            }
        }
        for (kind, _) in corruptionKinds where classes[kind]?[expectedClasses(kind).primary] == nil {
            violations.append("\(kind): no case ended in \(expectedClasses(kind).primary) (\(classes[kind] ?? [:]))")
        }
        #expect(violations.isEmpty, "\(violations.prefix(20))")
        try ReliabilityFigures.write(
            "misbehaving-simulator",
            [
                "cases": cases, "exchangesPerCycle": total, "exchangeStep": step, "kinds": corruptionKinds.count,
                "failureClasses": classes, "violations": violations,
            ])
    }

    @Test func aReaderThatDisappearsMidJobThrowsATypedErrorAndAReconnectedReaderFinishes() async throws {
        let folder = try Fixtures.temporaryDirectory("misbehave-gone")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = try await Self.ledger(folder, "gone", rows: 2, jobs: 1)
        let uids = uids(254, 0)
        let factory = try uids.map { try NTAGEmulator(chip: .ntag213, uid: $0).image }
        let job = twoRowJob("e1")
        let vanishing = try ScriptedTagReader(
            images: factory.map { ($0, .ntag213) }, script: [.init(index: 0), .init(index: 1)], disappearsAfter: 1)
        await #expect(throws: TransportError.transport("reader disconnected (USB gone)")) {
            try await LineWorker(reader: vanishing, ledger: ledger, job: job).run()
        }
        #expect(try await ledger.counts(job: "e1").done == 1)
        let images = await [vanishing.image(0), vanishing.image(1)]
        let again = try ScriptedTagReader(images: images.map { ($0, .ntag213) }, script: [.init(index: 1)])
        #expect(try await LineWorker(reader: again, ledger: ledger, job: job).run() == .jobComplete)
        #expect(try await ledger.tags(job: "e1").map(\.tag.uid) == uids)
    }

    private static func ledger(_ folder: URL, _ name: String, rows: Int, jobs: Int = 0) async throws -> Ledger {
        let safe = name.replacingOccurrences(of: " ", with: "-")
        let ledger = try await Ledger.open(path: folder.appendingPathComponent("\(safe).sqlite").path)
        let names = jobs == 0 ? ["j"] : (1...jobs).map { "e\($0)" }
        for job in names {
            try await ledger.registerJob(name: job, manifestHash: "m", templateHash: "t")
            try await ledger.addRows(
                job: job, rows: (1...rows).map { RowInput(row: $0, fields: [:], messageSHA256: [], messageLength: 0) })
        }
        return ledger
    }
}
