import Foundation
import NDEF
import TestSupport
import Testing

/// A libnfc reader that goes away mid-job and comes back (issue 46 item 5): the PN532 emulator behind the run's
/// device path exits in the middle of a tag's write (`--misbehave vanish@N`) and another starts on a new pty,
/// which the test's own symlink (the path the run opened) then names.
@Suite(.serialized) struct RunLibNFCReaderReturnTests {
    @Test func pn532ThatExitsMidWriteAndStartsAgainBehindTheSamePathResumesTheTagAndEveryRowIsDoneOnce() async throws {
        let folder = try JobFolder(rows: 5, tag: "ntag213")
        let spec = "sim:ntag213?count=5&uid=04F40000000000&store=\(folder.store.path)"
        let link = folder.url.appendingPathComponent("reader-port").path
        let (first, pty) = try await ChildProvision.pn532(
            ["--tags", spec, "--line", "--misbehave", "-,-,vanish@\(Self.writeExchange)"])
        try #require(pty.hasPrefix("/tmp/pn532."), "\(first.stderr)")
        try point(link, at: pty)
        let reader = "nfc:pn532_uart:" + link
        let run = try ChildProvision(["run", "job.json", "--reader", reader], workingDirectory: folder.url)
        // The moment: the emulator vanished in the third tag's write (its own plan, not a clock).
        #expect(try await first.wait() == 0, "\(first.stderr)")
        #expect(first.stderr.contains("vanished"), "\(first.stderr)")
        try await waitUntil("the reader is seen gone", while: run) { run.stderr.contains("gone; waiting for it") }
        let held = "04F40000000002"
        #expect(try folder.query("SELECT state, uid FROM records WHERE row = 3") == [["claimed", held]])
        // Mid-write: pages 8–11 of the held tag (blank: zeros) already hold part of its message, kept in the store.
        let image = [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("\(held).bin")))
        #expect(image.count > 48 && image[32..<48].contains { $0 != 0 }, "\(Hex.string(image.prefix(64)))")
        let (second, again) = try await ChildProvision.pn532(["--tags", spec, "--line"])
        try #require(again.hasPrefix("/tmp/pn532."), "\(second.stderr)")
        try point(link, at: again)
        let status = try await run.wait()
        #expect(try await second.stop() == 0)
        #expect(status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: reader \(reader) gone; waiting for it for ever"), "\(run.stderr)")
        #expect(run.stderr.contains("note: reader \(reader) back after"), "\(run.stderr)")
        // Every row done once, the held tag on its own row, nothing recorded as failed.
        try expectLedgerAndImagesAgree(folder, rows: 5)
        #expect(try folder.query("SELECT uid FROM records WHERE row = 3") == [[held]])
        #expect(try folder.query("SELECT count(*) FROM attempts WHERE outcome = 'failed'") == [["0"]])
    }

    /// The exchange of an NTAG213's cycle through the PN532 that is a page WRITE (identify, status, then writes).
    static let writeExchange = 9

    /// Re-points the test's symlink `link` at `target` atomically (a new link renamed over the old).
    private func point(_ link: String, at target: String) throws {
        let fresh = link + ".new"
        unlink(fresh)
        guard symlink(target, fresh) == 0, rename(fresh, link) == 0 else {
            throw HarnessError("cannot point \(link) at \(target): \(String(cString: strerror(errno)))")
        }
    }
}
