import Foundation
import ReaderPCSC
import TagEmulator
import TestSupport
import Testing

/// A PC/SC reader that goes away mid-job and comes back (issue 46 item 5): pcscd restarted under a running
/// `provision run` with a tag mid-write. vpcd's readers are static, so stopping the card would only be a card
/// removal; restarting pcscd takes the reader itself out of `SCardListReaders` and brings it back by name.
@Suite(.serialized) struct RunPCSCReaderReturnTests {
    /// The second tag's answer to its `hold` exchange (a WRITE, `FF D6`) never comes, so pcscd is restarted while
    /// `run` waits on a write the tag carried out: the reader pauses, returns, the tag resumes by its UID, and every
    /// row is done once with the image its ledger row says.
    @Test(.timeLimit(.minutes(3)))
    func pcscdRestartedWithATagMidWritePausesTheReaderAndEveryRowIsDoneOnce() async throws {
        let folder = try JobFolder(rows: 4, tag: "ntag213")
        let base = "04D10000000000"
        let options = try SimulationOptions("sim:ntag213?count=4&uid=\(base)&store=\(folder.store.path)")
        var daemon = try await PCSCDaemon.start(slots: 1) { try PCSCReader.listReaders().count }
        var configuration = VPCDConfiguration(port: daemon.ports[0], style: .acr122u, lineMode: true)
        configuration.misbehaviour = try FaultPlan(
            parsing: "-,hold@\(Self.writeExchange)", kind: VPCDMisbehaviour.parse
        )
        .byUID(options.uid(at:))
        let card = try VPCDVirtualTag.start(configuration) { [options] in VPCDFieldSource(options: options) }
        let reader = daemon.readerNames[0]
        let run = try ChildProvision(["run", "job.json", "--reader", "pcsc:" + reader], workingDirectory: folder.url)
        do {
            // The moment: the card held back its answer to the second tag's write (an event, not a clock).
            try await waitUntil("the card holds an answer", while: run) {
                counters(await card.command("stats"))["misbehaved"] == 1
            }
            let held = "04D10000000001"
            #expect(try folder.query("SELECT state, uid FROM records WHERE row = 2") == [["claimed", held]])
            // Mid-write: pages 08–0B of the held tag (blank: zeros) already hold part of its message.
            let dump = await card.command("dump").split(separator: "\n")
            let middle = dump.filter { ["08:", "09:", "0A:", "0B:"].contains($0.prefix(3)) }
            #expect(middle.count == 4 && middle.contains { !$0.hasSuffix("00 00 00 00") }, "\(dump)")
            var listedWhileDown: [String]?
            daemon = try await daemon.restart(
                readerCount: { try PCSCReader.listReaders().count },
                whileDown: { listedWhileDown = try? PCSCReader.listReaders() })
            // The reader vanished from SCardListReaders (no service, no reader) and returned under its name.
            #expect(listedWhileDown?.contains(reader) != true)
            #expect(try PCSCReader.listReaders().contains(reader))
            try await presentAgainIfLeftOut(held, card: card, folder: folder, run: run)
            #expect(try await run.wait() == 0, "\(run.stderr)")
            #expect(run.stderr.contains("warning: reader \(reader) gone; waiting for it for ever"), "\(run.stderr)")
            #expect(run.stderr.contains("note: reader \(reader) back after"), "\(run.stderr)")
            // Every row done once; the held tag finished its own row (resumed by UID), nothing failed.
            try expectLedgerAndImagesAgree(folder, rows: 4)
            #expect(try folder.query("SELECT uid FROM records WHERE row = 2") == [[held]])
            #expect(try folder.query("SELECT count(*) FROM attempts WHERE outcome = 'failed'") == [["0"]])
        } catch {
            print("pcscd log:\n\(daemon.log)\nrun:\n\(run.stderr)")
            await card.stop()
            await daemon.stop()
            throw error
        }
        await card.stop()
        await daemon.stop()
    }

    /// The exchange of a tag's cycle that is a page WRITE on this path (identify, NDEF status, then writes).
    static let writeExchange = 9

    /// The held tag comes back under the returned reader by itself when the card reconnects with it still in the
    /// field; when the card's line moved on instead (its reconnection taken for a removal, as on a busy machine),
    /// the run finishes the other rows and waits with an empty field, and the operator presents the held tag again,
    /// as on a line. Either way the tag resumes its own claim.
    func presentAgainIfLeftOut(
        _ held: String, card: VPCDVirtualTag, folder: JobFolder, run: ChildProvision
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while run.process.isRunning, ContinuousClock.now < deadline {
            let rows = try folder.query("SELECT row, state FROM records ORDER BY row")
            let waiting = rows == [["1", "done"], ["2", "claimed"], ["3", "done"], ["4", "done"]]
            if waiting, await card.command("stats").contains("tag=none") {
                #expect(await card.command("insert \(held)").contains("inserted \(held)"))
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// Polls `condition` every 20 ms until it holds (the event a test waits for), failing after 60 s or when
/// `process` ended first.
func waitUntil(_ what: String, while process: ChildProvision, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while try await !condition() {
        guard process.process.isRunning else { throw HarnessError("run ended before \(what):\n\(process.stderr)") }
        guard ContinuousClock.now < deadline else { throw HarnessError("timed out waiting until \(what)") }
        try await Task.sleep(for: .milliseconds(20))
    }
}
