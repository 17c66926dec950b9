import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// `provision run` through stock libnfc (`pn532_uart`) to a `provision emulate pn532 --line` child on
/// a pty (issue 6): the whole job, faults, and a second process finding the device busy.
@Suite(.serialized) struct RunLibNFCTests {
    /// Runs `provision run` in `folder` on the emulator's pty; returns the outcome and wall seconds.
    private func run(_ folder: JobFolder, slave: String, _ extra: [String] = []) async throws -> (
        ProvisionProcess.Outcome, Double
    ) {
        let start = ContinuousClock.now
        let arguments = ["run", "job.json", "--reader", "nfc:pn532_uart:" + slave, "--quiet", "--idle", "20"] + extra
        let outcome = try await onThread { try ProvisionProcess.run(arguments, directory: folder.url) }
        let elapsed = (ContinuousClock.now - start).components
        return (outcome, Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }

    @Test func twentyRowJobThroughLibnfcLedgerAndImagesAgree() async throws {
        let folder = try JobFolder(rows: 20)
        let (emulator, slave) = try await ChildProvision.pn532(
            ["--tags", "sim:ntag215?count=24&uid=04B10000000000&store=\(folder.store.path)", "--line"])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        let (outcome, seconds) = try await run(folder, slave: slave)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try await emulator.stop() == 0)
        try expectLedgerAndImagesAgree(folder, rows: 20)
        // No tag fault was injected: no failure of any other class, and transport failures within their budget.
        #expect(
            try folder.query(
                "SELECT failure_class FROM attempts WHERE outcome != 'done' AND failure_class != 'transport'") == [])
        try expectTransportFailures(in: folder, atMost: 2, "twenty-row job")
        // Every tag was locked through this path too.
        #expect(try folder.query("SELECT count(*) FROM tags WHERE locked = 1") == [["20"]])
        print(
            "libnfc run: 20 tags in \(String(format: "%.2f", seconds)) s "
                + "(\(String(format: "%.0f", seconds * 50)) ms/tag incl. start-up)"
        )
    }

    /// Firmware variants the backend learns at the first re-activation: selects that keep the
    /// host's CRC bits (`--select-keeps-crc`: RX CRC switched off once; the default switches CRC back
    /// on, and RX CRC is switched off before the first tag command after every select) and an InSelect
    /// that does not wake a halted tag (`--inselect-reqa`, re-activation by field cycle). The job is the same.
    @Test(arguments: [["--select-keeps-crc"], ["--inselect-reqa"], ["--select-keeps-crc", "--inselect-reqa"]])
    func firmwareVariantsRunTheSameJob(_ variant: [String]) async throws {
        let folder = try JobFolder(rows: 6)
        let (emulator, slave) = try await ChildProvision.pn532(
            ["--tags", "sim:ntag215?count=10&uid=04B40000000000&store=\(folder.store.path)", "--line"] + variant)
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        let (outcome, _) = try await run(folder, slave: slave)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try await emulator.stop() == 0)
        try expectLedgerAndImagesAgree(folder, rows: 6)
        #expect(try folder.query("SELECT count(*) FROM tags WHERE locked = 1") == [["6"]])
    }

    @Test func faultsThroughLibnfcEndInTheirClassesAndTheJobGoesOn() async throws {
        let folder = try JobFolder(rows: 20)
        let spec =
            "sim:ntag215?count=40&uid=04B20000000000&seed=11&faults=tear:0.2,nak5:0.2,noanswer:0.2"
            + "&store=\(folder.store.path)"
        let (emulator, slave) = try await ChildProvision.pn532(["--tags", spec, "--line"])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        let (outcome, _) = try await run(folder, slave: slave)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try await emulator.stop() == 0)
        try expectLedgerAndImagesAgree(folder, rows: 20)
        let failures = try String(contentsOf: folder.reports.appendingPathComponent("failures.csv"), encoding: .utf8)
        for name in ["tagLost", "nak", "timeout"] { #expect(failures.contains(",\(name),"), "\(name): \(failures)") }
        #expect(failures.contains("NAK 5h"))
        // A torn tag came back and finished the very row it held; it was never committed twice.
        let lost = try folder.query("SELECT DISTINCT uid, row FROM attempts WHERE failure_class = 'tagLost'")
        #expect(!lost.isEmpty)
        for pair in lost {
            #expect(
                try folder.query("SELECT row FROM records WHERE uid = '\(pair[0])' AND state = 'done'") == [[pair[1]]])
            #expect(
                try folder.query("SELECT count(*) FROM attempts WHERE uid = '\(pair[0])' AND outcome = 'done'") == [
                    ["1"]
                ])
        }
    }

    @Test func aSecondRunOnTheSameDeviceIsBusyAndTheFirstIsUnaffected() async throws {
        // Five tags for a twenty-row job: after them the first run waits on an empty field, holding the
        // device for as long as the test needs, however slowly this host starts the second process.
        let folder = try JobFolder(rows: 20)
        let other = try JobFolder(job: "u", rows: 2)
        let (emulator, slave) = try await ChildProvision.pn532(
            [
                "--tags", "sim:ntag215?count=5&uid=04B30000000000&store=\(folder.store.path)", "--line",
                "--timing", "datasheet",
            ])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        let first = try ChildProvision(
            ["run", "job.json", "--reader", "nfc:pn532_uart:" + slave, "--quiet", "--idle", "600"],
            workingDirectory: folder.url)
        var done = 0
        for _ in 0..<3_000 where first.process.isRunning && done < 5 {
            try await Task.sleep(for: .milliseconds(20))
            guard FileManager.default.fileExists(atPath: folder.ledger.path) else { continue }
            done =
                (try? folder.query("SELECT count(*) FROM records WHERE state = 'done'"))?.first?.first.flatMap {
                    Int($0)
                } ?? 0
        }
        try #require(done == 5, "the first run did not finish the five tags: \(first.stderr)")
        let second = try await onThread {
            try ProvisionProcess.run(["run", "job.json", "--reader", "nfc:pn532_uart:" + slave], directory: other.url)
        }
        #expect(first.process.isRunning, "the first run ended before the second tried: \(first.stderr)")
        #expect(second.status == 75, "\(second.stderr)")
        #expect(second.stderr.contains("in use by process \(first.pid)"), "\(second.stderr)")
        #expect(!FileManager.default.fileExists(atPath: other.ledger.path))
        // The operator stops the first run while it waits for a tag: interrupted (130), nothing lost.
        kill(first.pid, SIGINT)
        let status = try await first.wait()
        #expect(status == 130, "\(first.stderr)\n\(first.stdout)")
        let attempts = try folder.query(
            "SELECT uid, row, outcome, failure_class, failure_detail FROM attempts WHERE outcome != 'done'")
        #expect(attempts.allSatisfy { $0[3] == "transport" }, "the first run was disturbed: \(attempts)")
        try expectTransportFailures(in: folder, atMost: 1, "busy test, first run")
        #expect(try folder.query("SELECT count(DISTINCT uid) FROM tags WHERE locked = 1") == [["5"]])
        #expect(try await emulator.stop() == 0)
        try expectLedgerAndImagesAgree(folder, rows: 20, done: 5)
    }

    /// Counts the transport failures of a run against an explicit budget and reports them, never ignores them.
    ///
    /// A late emulator reply past libnfc's timeout on a loaded machine is a transport failure; the line moves to
    /// the next tag (the population's spares), so the job is still done. Each one is printed with the budget
    /// it used; more than `budget` fails the test.
    private func expectTransportFailures(
        in folder: JobFolder, atMost budget: Int, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let failures = try folder.query(
            "SELECT uid, row, failure_detail FROM attempts WHERE outcome != 'done' AND failure_class = 'transport'")
        let listed = failures.isEmpty ? "" : ": \(failures)"
        print("\(name): \(failures.count) transport failure(s) of a budget of \(budget)\(listed)")
        #expect(
            failures.count <= budget, "\(name): \(failures.count) transport failures, budget \(budget): \(failures)",
            sourceLocation: sourceLocation)
    }
}
