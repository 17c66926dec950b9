import Foundation
import TestSupport
import Testing

/// Runs `Tests/Fixtures/nfcpy/read_tag.py` with the `python3` on `PATH` (nfcpy from PyPI; `make deps`
/// installs it).
enum NfcpyReader {
    /// What one run printed and returned.
    struct Outcome: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String

        /// The JSON object on the last line of stdout.
        var json: [String: Any]? {
            guard let line = stdout.split(separator: "\n").last else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// nfcpy's view of the tag on the PN532 at `path`: its open sequence, `connect`, the NDEF read.
    static func readTag(at path: String) async throws -> Outcome {
        try await onThread { try python([Fixtures.url("nfcpy/read_tag.py").path, path]) }
    }

    /// Runs `python3 arguments`, killed after `timeoutSeconds`.
    static func python(_ arguments: [String], timeoutSeconds: Int = 60) throws -> Outcome {
        let folder = try Fixtures.temporaryDirectory("nfcpy")
        defer { try? FileManager.default.removeItem(at: folder) }
        let errURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let child = UncheckedProcess(process)
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeoutSeconds)) {
            if child.process.isRunning { child.process.terminate() }
        }
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        let text = String(decoding: stdout, as: UTF8.self)
        return Outcome(status: process.terminationStatus, stdout: text, stderr: stderr)
    }
}

/// One `provision emulate pn532` process serving two host stacks in turn, as an operator swaps
/// tools on one reader (issue 27 item 16): nfcpy, stock libnfc (`provision write`), nfcpy again.
@Suite(.serialized)
struct EmulateCommandPN532Tests {
    /// The tag's URI records as nfcpy reported them, or `nil` when nfcpy saw no NDEF.
    private func uris(_ outcome: NfcpyReader.Outcome) -> [String]? {
        (outcome.json?["ndef"] as? [[String: Any]])?.map { ($0["uri"] as? String) ?? "" }
    }

    /// nfcpy reads the blank tag, `provision write` writes `uri` through stock libnfc and closes,
    /// nfcpy reads again: all on one `provision emulate pn532 --lenient-power ARGS` process.
    private func nfcpyAfterLibnfc(
        writing uri: String, emulatorArguments: [String] = []
    ) async throws -> (blank: NfcpyReader.Outcome, read: NfcpyReader.Outcome) {
        let (emulator, slave) = try await ChildProvision.pn532(
            ["--tags", "sim:ntag215?uid=04C0FFEE271600", "--lenient-power"] + emulatorArguments)
        try #require(slave.hasPrefix("/dev/pts/"), "\(emulator.stderr)")
        let blank = try await NfcpyReader.readTag(at: slave)
        let written = try await onThread {
            try ProvisionProcess.run(["write", "--reader", "nfc:pn532_uart:" + slave, "--uri", uri])
        }
        #expect(written.status == 0, "\(written.stdout)\(written.stderr)")
        let read = try await NfcpyReader.readTag(at: slave)
        #expect(try await emulator.stop() == 0)
        return (blank, read)
    }

    /// What our backend leaves in TxMode/RxMode (RX CRC off) outlives its session, as a real PN532's
    /// registers do; nfcpy never sets TX CRC itself, and the select switches CRC on (the emulator's
    /// default). nfcpy must see the NTAG215 and the message libnfc wrote.
    @Test
    func nfcpyReadsWhatLibnfcWroteOnTheSameEmulator() async throws {
        let uri = "https://example.com/issue-27/16"
        let (blank, read) = try await nfcpyAfterLibnfc(writing: uri)
        #expect(blank.status == 0, "\(blank.stdout)\(blank.stderr)")
        #expect(blank.json?["type"] as? String == "NTAG215", "\(blank.stdout)")
        #expect(uris(blank) == [], "a formatted, empty NDEF area")
        #expect(read.status == 0, "\(read.stdout)\(read.stderr)")
        #expect(read.json?["type"] as? String == "NTAG215", "\(read.stdout)")
        #expect(read.json?["product"] as? String == "NXP NTAG215")
        #expect(uris(read) == [uri], "\(read.stdout)")
    }

    /// The emulator as it was (`--select-keeps-crc`: selects keep the host's CRC bits). Issue 27 item
    /// 16 came from our backend's old raw mode, which left TX CRC off: nfcpy's tag commands then went out
    /// without CRC_A and it saw a generic Type 2 tag without NDEF. The backend now clears only RX CRC,
    /// as nfcpy does itself for each Type 2 tag, and leaves TX CRC on, so nfcpy reads what libnfc
    /// wrote on this emulator too.
    @Test
    func nfcpyReadsAfterLibnfcEvenWhenSelectsKeepTheHostsCRCBits() async throws {
        let uri = "https://example.com/issue-27/16"
        let (blank, read) = try await nfcpyAfterLibnfc(writing: uri, emulatorArguments: ["--select-keeps-crc"])
        #expect(blank.json?["type"] as? String == "NTAG215", "\(blank.stdout)")
        #expect(read.status == 0, "\(read.stdout)\(read.stderr)")
        #expect(read.json?["type"] as? String == "NTAG215", "\(read.stdout)")
        #expect(uris(read) == [uri], "\(read.stdout)")
    }
}
