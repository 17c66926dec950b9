import Foundation
import NDEF
import NFCTags
import ReaderPCSC
import TagEmulator
import TestSupport
import Testing

/// A private pcscd with in-process vpcd virtual tags in line mode (a tag the host powered off leaves,
/// the next arrives), one per slot; `provision run` runs as a child process against it.
private struct LineReaders {
    let daemon: PCSCDaemon
    let cards: [VPCDVirtualTag]

    static func start(_ specs: [String], style: VPCDReaderStyle) async throws -> LineReaders {
        let options = try specs.map { try SimulationOptions($0) }
        let daemon = try await PCSCDaemon.start(slots: specs.count) { try PCSCReader.listReaders().count }
        var cards: [VPCDVirtualTag] = []
        do {
            for (slot, population) in options.enumerated() {
                let configuration = VPCDConfiguration(port: daemon.ports[slot], style: style, lineMode: true)
                cards.append(try VPCDVirtualTag.start(configuration) { VPCDFieldSource(options: population) })
            }
        } catch {
            for card in cards { await card.stop() }
            await daemon.stop()
            throw error
        }
        return LineReaders(daemon: daemon, cards: cards)
    }

    func shutdown() async {
        for card in cards { await card.stop() }
        await daemon.stop()
    }

    /// The LED/buzzer APDUs card `slot` received, as compact hex.
    func feedback(_ slot: Int) async -> [String] {
        await cards[slot].command("feedback").split(separator: "\n").map(String.init)
            .filter { $0 != "ok" }.map { $0.replacingOccurrences(of: " ", with: "") }
    }
}

/// Runs `body` with line-mode virtual readers, always shutting them down.
private func withLineReaders(
    _ specs: [String], style: VPCDReaderStyle = .acr122u, _ body: (LineReaders) async throws -> Void
) async throws {
    let readers = try await LineReaders.start(specs, style: style)
    do {
        try await body(readers)
    } catch {
        await readers.shutdown()
        throw error
    }
    await readers.shutdown()
}

/// `provision run` in `folder` with `arguments`; returns the outcome and wall seconds.
private func run(_ folder: JobFolder, _ arguments: [String], idle: Int = 15) async throws -> (
    ProvisionProcess.Outcome, Double
) {
    let start = ContinuousClock.now
    let all = ["run", "job.json", "--quiet", "--idle", String(idle)] + arguments
    let outcome = try await onThread { try ProvisionProcess.run(all, directory: folder.url) }
    let elapsed = (ContinuousClock.now - start).components
    return (outcome, Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
}

private let passAPDU = Hex.compact(PCSCReader.feedbackAPDU(.pass))
private let failAPDU = Hex.compact(PCSCReader.feedbackAPDU(.fail))

/// `provision run` through a real pcscd, the vpcd driver and the virtual tag (issue 7).
@Suite(.serialized) struct RunPCSCTests {
    @Test func readersListsTheVirtualReaderAndInspectReadsTheTagThroughPCSC() async throws {
        let folder = try JobFolder(rows: 1)
        let uid = "04C90000000001"
        // Put a message on the tag image first (simulated reader, same store).
        let write = try await onThread {
            try ProvisionProcess.run(
                [
                    "write", "--reader", "sim:ntag215?uid=\(uid)&count=1&store=\(folder.store.path)",
                    "--uri", "https://example.com/pcsc",
                ], directory: folder.url)
        }
        #expect(write.status == 0, "\(write.stderr)")
        try await withLineReaders(["sim:ntag215?count=1&uid=\(uid)&store=\(folder.store.path)"]) { readers in
            let listing = try await onThread { try ProvisionProcess.run(["readers"], directory: folder.url) }
            #expect(listing.status == 0)
            let names = try PCSCReader.listReaders()
            #expect(!names.isEmpty && names.allSatisfy { listing.stdout.contains($0) }, "\(listing.stdout)")
            let inspect = try await onThread {
                try ProvisionProcess.run(
                    ["inspect", "--reader", "pcsc:#0?style=acr122u", "--json"], directory: folder.url)
            }
            #expect(inspect.status == 0, "\(inspect.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
            #expect(json["uid"] as? String == uid)
            let chip = try #require(json["chip"] as? [String: Any])
            #expect(chip["model"] as? String == "ntag215")
            #expect(chip["get_version"] as? String != nil, "identified by GET_VERSION through the direct-transmit path")
            #expect(inspect.stdout.contains("https://example.com/pcsc"))
        }
    }

    @Test func twentyRowJobThroughOneReaderWithPassFeedback() async throws {
        let folder = try JobFolder(rows: 20)
        try await withLineReaders(["sim:ntag215?count=20&uid=04C10000000000&store=\(folder.store.path)"]) { readers in
            let (outcome, seconds) = try await run(folder, ["--reader", "pcsc:#0?style=acr122u"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            try expectLedgerAndImagesAgree(folder, rows: 20)
            #expect(try folder.query("SELECT count(*) FROM attempts WHERE outcome != 'done'") == [["0"]])
            // Green LED and a short beep for every tag, sent before the release.
            #expect(await readers.feedback(0) == Array(repeating: passAPDU, count: 20))
            print(
                "pcsc run: 20 tags in \(String(format: "%.2f", seconds)) s "
                    + "(\(String(format: "%.0f", seconds * 50)) ms/tag incl. start-up)"
            )
        }
    }

    @Test func twoReadersAtOnceDoEveryRowOnceAndNoFeedbackWhenDisabled() async throws {
        let folder = try JobFolder(rows: 20)
        let specs = [
            "sim:ntag215?count=14&uid=04C20000000000&store=\(folder.store.path)",
            "sim:ntag215?count=14&uid=04C30000000000&store=\(folder.store.path)",
        ]
        try await withLineReaders(specs) { readers in
            let (outcome, _) = try await run(folder, ["--reader", "pcsc:*?style=acr122u", "--no-feedback"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            try expectLedgerAndImagesAgree(folder, rows: 20)
            let byReader = try folder.query(
                "SELECT reader, count(*) FROM attempts WHERE outcome = 'done' GROUP BY reader")
            #expect(byReader.count == 2, "both readers worked: \(byReader)")
            let first = await readers.feedback(0)
            let second = await readers.feedback(1)
            #expect(first.isEmpty && second.isEmpty, "\(first) \(second)")
        }
    }

    @Test func tornTagIsLostNeverDoneThenFinishesItsRowAndRefusedTagsGetFailFeedback() async throws {
        let folder = try JobFolder(rows: 20)
        let spec =
            "sim:ntag215?count=40&uid=04C40000000000&seed=5&faults=tear:0.25,wrongchip:0.15&store=\(folder.store.path)"
        try await withLineReaders([spec]) { readers in
            let (outcome, _) = try await run(folder, ["--reader", "pcsc:#0?style=acr122u"])
            let stats = await readers.cards[0].command("stats")
            #expect(outcome.status == 0, "\(outcome.stderr) \(stats)")
            try expectLedgerAndImagesAgree(folder, rows: 20)
            let lost = try folder.query("SELECT id, uid, row FROM attempts WHERE failure_class = 'tagLost'")
            #expect(!lost.isEmpty, "the seed must tear some tags")
            for attempt in lost {
                // The torn attempt was not committed; the same UID finished its row afterwards, once.
                let done = try folder.query(
                    "SELECT id, row FROM attempts WHERE uid = '\(attempt[1])' AND outcome = 'done'")
                #expect(done.count == 1 && done.first?[1] == attempt[2], "\(attempt) \(done)")
                #expect((Int(done.first?[0] ?? "") ?? 0) > (Int(attempt[0]) ?? 0))
            }
            let refused = try folder.query("SELECT count(*) FROM attempts WHERE failure_class = 'wrongChip'")
            let feedback = await readers.feedback(0)
            #expect(feedback.filter { $0 == passAPDU }.count == 20)
            #expect([String(feedback.filter { $0 == failAPDU }.count)] == refused.first, "\(feedback)")
            #expect(refused != [["0"]], "the seed must bring wrong chips")
        }
    }

    @Test func plainStyleWorksWithReadVerifyAndChipByCCSize() async throws {
        let folder = try JobFolder(rows: 10)
        let spec = "sim:ntag215?count=10&uid=04C50000000000&store=\(folder.store.path)"
        try await withLineReaders([spec], style: .plain) { readers in
            let (outcome, _) = try await run(folder, ["--reader", "pcsc:#0?style=plain"])
            let attempts = try folder.query("SELECT uid, row, failure_class, failure_detail FROM attempts")
            #expect(outcome.status == 0, "\(outcome.stderr)\(outcome.stdout)\(attempts)")
            try expectLedgerAndImagesAgree(folder, rows: 10)
            #expect(try folder.query("SELECT DISTINCT chip FROM tags") == [["ntag215"]])
            #expect(await readers.feedback(0).isEmpty, "no LED APDU on a plain reader")
        }
        // An NTAG213 on a plain reader is refused by its CC size for an NTAG215 job.
        let small = try JobFolder(job: "s", rows: 1)
        let spec213 = "sim:ntag213?count=1&uid=04C60000000000&store=\(small.store.path)"
        try await withLineReaders([spec213], style: .plain) { _ in
            let (outcome, _) = try await run(small, ["--reader", "pcsc:#0?style=plain"], idle: 3)
            #expect(outcome.status == 1, "\(outcome.stderr)")
            let failures = try small.query("SELECT failure_class, failure_detail FROM attempts")
            #expect(failures.first?.first == "wrongChip")
            #expect(failures.first?.joined(separator: ",").contains("by its CC size") == true, "\(failures)")
        }
    }

    /// A reader path without raw commands cannot send READ_SIG: `require` stops `run` before the first
    /// tag (exit 69, no ledger, no APDU to the tag); `record` writes and records `unavailable`.
    @Test func plainReaderStopsRequiredSignatureBeforeTheFirstTagAndRecordsUnavailable() async throws {
        let trust = #"["\#(testTrustHex)"]"#
        let strict = try JobFolder(rows: 2, extra: #", "signature": {"mode": "require", "trust": \#(trust)}"#)
        let spec = "sim:ntag215?count=2&uid=04C70000000000&store=\(strict.store.path)"
        try await withLineReaders([spec], style: .plain) { readers in
            let (outcome, _) = try await run(strict, ["--reader", "pcsc:#0?style=plain", "--allow-test-keys"], idle: 3)
            #expect(outcome.status == 69, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("cannot send raw commands (READ_SIG)"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains(#""signature": "record""#))
            #expect(!FileManager.default.fileExists(atPath: strict.ledger.path), "no ledger, so no done rows")
            let stats = await readers.cards[0].command("stats")
            #expect(stats.contains(" apdus=0 ") && stats.contains(" update=0 "), "the tag was touched: \(stats)")
        }
        let lenient = try JobFolder(job: "r", rows: 2, extra: #", "signature": {"mode": "record", "trust": \#(trust)}"#)
        let population = "sim:ntag215?count=2&uid=04C80000000000&store=\(lenient.store.path)"
        try await withLineReaders([population], style: .plain) { _ in
            let (outcome, _) = try await run(lenient, ["--reader", "pcsc:#0?style=plain", "--allow-test-keys"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(try lenient.query("SELECT signature_status FROM tags") == [["unavailable"], ["unavailable"]])
        }
    }

    /// The auth job through pcscd + vpcd (ACR122U direct transmit): protected, signature-checked tags
    /// whose tap URLs, read back through PC/SC with the chip's mirror, verify.
    @Test func authJobThroughPCSCIsProtectedAndItsTapURLsVerify() async throws {
        let job = try AuthTapJob(job: "auth")
        let uid = "04CA0000000001"
        try await withLineReaders(["sim:ntag215?count=2&uid=\(uid)&store=\(job.folder.store.path)"]) { readers in
            let run = try await job.run(reader: "pcsc:#0?style=acr122u")
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try job.folder.query("SELECT DISTINCT signature_status, key_id FROM tags") == [["valid", "brand"]])
            // The first tag back in the field for each tap (line mode: a powered-off tag leaves).
            #expect(await readers.cards[0].command("insert \(uid)").contains("ok"))
            let (first, _) = try await job.tap(reader: "pcsc:#0?style=acr122u")
            #expect(first.hasPrefix("https://example.com/a/S00001?m=\(uid)x"), "\(first)")
            #expect(await readers.cards[0].command("insert \(uid)").contains("ok"))
            let (second, _) = try await job.tap(reader: "pcsc:#0?style=acr122u")
            print("pcsc taps: \(first) then \(second)")
            try await job.expectVerdicts(first: first, second: second)
            #expect(await readers.cards[0].command("insert \(uid)").contains("ok"))
            try await job.expectWriteRefusedUntilAuthenticated(reader: "pcsc:#0?style=acr122u")
        }
    }
}
