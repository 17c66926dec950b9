import Foundation
import NDEF
import NFCTags
import ReaderPCSC
import TagEmulator
import TestSupport
import Testing

/// One planned misbehaviour and the failure class the ledger must record for its tag.
private struct Case {
    /// Population index of the misbehaving tag (the clean tag after it is `index + 1`).
    var index: Int
    /// The entry: `plan=` of the tags (tag level) or `--misbehave` (reader level).
    var entry: String
    var readerLevel: Bool
    /// The class recorded for the tag's attempt, and text its detail must contain.
    var failureClass: String
    var detail: String = ""
    /// A NACK storm also swallows the release, so the tag stays and may finish a row on its next poll.
    var mayFinishItself = false
}

/// The 7-byte UID of population index `index` from a 14-digit base ending in zeros.
private func uid(_ base: String, _ index: Int) -> String {
    String(base.dropLast(2)) + String(format: "%02X", index)
}

/// Plan text for the cases of one level, `-` for every other tag of a population of `count`.
private func plan(_ cases: [Case], readerLevel: Bool, count: Int) -> String {
    (0..<count).map { index in cases.first { $0.index == index && $0.readerLevel == readerLevel }?.entry ?? "-" }
        .joined(separator: ",")
}

/// An NTAG213 job with one try per presentation (`retries: 0`), so every misbehaviour is recorded as a failure.
private func oneTryJob(rows: Int) throws -> JobFolder {
    let folder = try JobFolder(rows: rows, tag: "ntag213")
    let url = folder.url.appendingPathComponent("job.json")
    let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(
        of: #""retries": 2"#, with: #""retries": 0"#)
    try Data(text.utf8).write(to: url)
    return folder
}

/// Every case ended in its class (nothing else recorded for that tag), and the clean tag after it was done.
private func expectCases(_ cases: [Case], _ folder: JobFolder, base: String) throws {
    for item in cases {
        let bad = uid(base, item.index)
        let failures = try folder.query(
            "SELECT failure_class, failure_detail FROM attempts WHERE uid = '\(bad)' AND outcome = 'failed'")
        #expect(failures.map(\.first) == [item.failureClass], "\(item.entry): \(failures)")
        #expect(
            item.detail.isEmpty || failures.first?.joined(separator: ",").contains(item.detail) == true,
            "\(item.entry): \(failures)")
        let next = try folder.query("SELECT outcome FROM attempts WHERE uid = '\(uid(base, item.index + 1))'")
        let itself = try folder.query("SELECT outcome FROM attempts WHERE uid = '\(bad)' AND outcome = 'done'")
        #expect(
            next == [["done"]] || (item.mayFinishItself && itself == [["done"]]), "\(item.entry): the next tag \(next)")
    }
}

/// Misbehaving tags and readers through the backends' emulators (issue 8 item 4), `provision run`
/// end to end: through stock libnfc to `provision emulate pn532`, and through stock pcscd to the vpcd
/// card. The full matrix (every kind at every exchange) is `make reliability`'s `readers` section.
@Suite(.serialized) struct MisbehavingEmulatorTests {
    private static let pn532Cases = [
        Case(index: 0, entry: "garbage:4@3", readerLevel: false, failureClass: "transport", detail: "answered 4 bytes"),
        Case(index: 2, entry: "nak:5@5", readerLevel: false, failureClass: "nak", detail: "NAK 5h"),
        Case(index: 4, entry: "silence@6", readerLevel: false, failureClass: "timeout", detail: "no answer"),
        Case(index: 6, entry: "short:2@4", readerLevel: false, failureClass: "transport", detail: "invalid response"),
        Case(index: 8, entry: "dcs@2", readerLevel: true, failureClass: "transport", detail: "NFC_EIO"),
        Case(index: 10, entry: "truncate@4", readerLevel: true, failureClass: "transport", detail: "NFC_ETIMEOUT"),
        Case(index: 12, entry: "wrongcode@3", readerLevel: true, failureClass: "transport", detail: "NFC_EIO"),
        Case(
            index: 14, entry: "nackstorm@5", readerLevel: true, failureClass: "transport", detail: "NFC_EIO",
            mayFinishItself: true),
    ]

    @Test func pn532TagAndFrameMisbehaviourEndsInTypedClassesAndTheNextTagIsDone() async throws {
        let folder = try oneTryJob(rows: 8)
        let base = "04F10000000000"
        let cases = Self.pn532Cases
        let spec =
            "sim:ntag213?count=20&uid=\(base)&store=\(folder.store.path)"
            + "&plan=\(plan(cases, readerLevel: false, count: 16))"
        let (emulator, slave) = try await ChildProvision.pn532(
            ["--tags", spec, "--line", "--misbehave", plan(cases, readerLevel: true, count: 16)])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        // The run ends when its 8 rows are done, never on a clock: `--idle` counts from the last done tag, and
        // the NACK storm's tag waits for its release to get through before it finishes itself or leaves, a gap a
        // loaded machine stretches. A 3 s idle could end the run in that gap, with neither it nor the next tag
        // done; 60 s only guards against a hang.
        let outcome = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", "nfc:pn532_uart:" + slave, "--quiet", "--idle", "60"],
                directory: folder.url)
        }
        #expect(emulator.process.isRunning, "the emulator survived: \(emulator.stderr)")
        #expect(try await emulator.stop() == 0)
        #expect(emulator.stderr.contains("4 misbehaved"), "\(emulator.stderr)")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        try expectCases(cases, folder, base: base)
        try expectLedgerAndImagesAgree(folder, rows: 8)
    }

    @Test func pn532ThatVanishesMidTagAndNeverReturnsExits69AfterTheReaderTimeoutAndTheJobResumes() async throws {
        let folder = try oneTryJob(rows: 5)
        let spec = "sim:ntag213?count=5&uid=04F20000000000&store=\(folder.store.path)"
        let (gone, slave) = try await ChildProvision.pn532(["--tags", spec, "--line", "--misbehave", "-,-,vanish@7"])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(gone.stderr)")
        let reader = "nfc:pn532_uart:" + slave
        let first = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", reader, "--quiet", "--reader-timeout", "1"], directory: folder.url)
        }
        #expect(try await gone.wait() == 0, "the emulator ended by itself")
        #expect(gone.stderr.contains("vanished"), "\(gone.stderr)")
        // The reader paused instead of failing the tag, and the run stopped only after the timeout, naming it.
        #expect(first.status == 69, "\(first.stderr)")
        #expect(
            first.stderr.contains("warning: reader \(reader) gone; waiting for it for up to 1 s"), "\(first.stderr)")
        #expect(first.stderr.contains("error: reader \(reader) stopped"), "\(first.stderr)")
        #expect(first.stderr.contains("(--reader-timeout)"), "\(first.stderr)")
        // Two rows done; the third tag keeps its claim, as after a kill, and no failure was recorded for it.
        #expect(
            try folder.query("SELECT state, count(*) FROM records GROUP BY state") == [
                ["claimed", "1"], ["done", "2"], ["pending", "2"],
            ])
        #expect(try folder.query("SELECT count(*) FROM attempts WHERE outcome = 'failed'") == [["0"]])
        let (back, again) = try await ChildProvision.pn532(["--tags", spec, "--line"])
        try #require(again.hasPrefix("/tmp/pn532."), "\(back.stderr)")
        let second = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", "nfc:pn532_uart:" + again, "--quiet", "--idle", "3"],
                directory: folder.url)
        }
        #expect(try await back.stop() == 0)
        #expect(second.status == 0, "\(second.stderr)")
        try expectLedgerAndImagesAgree(folder, rows: 5)
        // The two tags done before the vanish came round again and were refused as duplicates.
        #expect(try folder.query("SELECT count(*) FROM attempts WHERE failure_class = 'duplicateUID'") == [["2"]])
    }

    private static let vpcdCases = [
        Case(index: 0, entry: "nak:1@5", readerLevel: false, failureClass: "nak", detail: "NAK 0h"),
        Case(index: 2, entry: "sw:6F00@6", readerLevel: true, failureClass: "transport", detail: "status word 6F 00"),
        Case(
            index: 4, entry: "short@4", readerLevel: true, failureClass: "transport",
            detail: "shorter than a status word"),
        Case(index: 6, entry: "malformed@6", readerLevel: true, failureClass: "transport", detail: "status word DE AD"),
    ]

    @Test func vpcdCardMisbehaviourEndsInTypedClassesAndTheNextTagIsDone() async throws {
        let folder = try oneTryJob(rows: 4)
        let base = "04F30000000000"
        let cases = Self.vpcdCases
        let options = try SimulationOptions(
            "sim:ntag213?count=8&uid=\(base)&store=\(folder.store.path)"
                + "&plan=\(plan(cases, readerLevel: false, count: 8))"
        )
        let daemon = try await PCSCDaemon.start(slots: 1) { try PCSCReader.listReaders().count }
        var configuration = VPCDConfiguration(port: daemon.ports[0], style: .acr122u, lineMode: true)
        configuration.misbehaviour = try FaultPlan(
            parsing: plan(cases, readerLevel: true, count: 8), kind: VPCDMisbehaviour.parse
        )
        .byUID(options.uid(at:))
        let card = try VPCDVirtualTag.start(configuration) { [options] in VPCDFieldSource(options: options) }
        let outcome = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", "pcsc:#0", "--quiet", "--idle", "4"], directory: folder.url)
        }
        let stats = await card.command("stats")
        await card.stop()
        await daemon.stop()
        #expect(stats.contains("misbehaved=3"), "\(stats)")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        try expectCases(cases, folder, base: base)
        try expectLedgerAndImagesAgree(folder, rows: 4)
    }

    /// pcscd stops and never comes back: the reader pauses, and the run stops after `--reader-timeout`.
    @Test func pcscdThatGoesAwayMidJobExits69AfterTheReaderTimeoutAndTheJobResumesOnANewDaemon() async throws {
        let folder = try oneTryJob(rows: 4)
        let options = try SimulationOptions("sim:ntag213?count=4&uid=04F40000000000&store=\(folder.store.path)")
        var daemon = try await PCSCDaemon.start(slots: 1) { try PCSCReader.listReaders().count }
        var card = try VPCDVirtualTag.start(VPCDConfiguration(port: daemon.ports[0], lineMode: true)) { [options] in
            VPCDFieldSource(options: options)
        }
        let first = try ChildProvision(
            ["run", "job.json", "--reader", "pcsc:#0", "--quiet", "--reader-timeout", "1.5"],
            workingDirectory: folder.url)
        for _ in 0..<3_000 where first.process.isRunning {
            let done = try? folder.query("SELECT count(*) FROM records WHERE state = 'done'")
            if (done?.first?.first).flatMap({ Int($0) }) ?? 0 >= 1 { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        // The same daemon slot stays this test's while the run waits (a restart, not a stop: a stop would let
        // another test's pcscd take the socket, and the waiting run would find that daemon's reader).
        var status: Int32 = -1
        daemon = try await daemon.restart(
            readerCount: { try PCSCReader.listReaders().count },
            whileDown: { status = try await first.wait() })
        await card.stop()
        #expect(status == 69, "\(first.stderr)")
        #expect(first.stderr.contains("stopped"), "\(first.stderr)")
        #expect(first.stderr.contains("gone; waiting for it for up to 1.5 s"), "\(first.stderr)")
        #expect(first.stderr.contains("every reader of the run gone for 1.5 s (--reader-timeout)"), "\(first.stderr)")
        let states = try folder.query("SELECT state FROM records WHERE state NOT IN ('done', 'pending', 'claimed')")
        #expect(states.isEmpty, "\(states)")
        card = try VPCDVirtualTag.start(VPCDConfiguration(port: daemon.ports[0], lineMode: true)) { [options] in
            VPCDFieldSource(options: options)
        }
        let second = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", "pcsc:#0", "--quiet", "--idle", "4"], directory: folder.url)
        }
        await card.stop()
        await daemon.stop()
        #expect(second.status == 0, "\(second.stderr)")
        try expectLedgerAndImagesAgree(folder, rows: 4)
    }
}
