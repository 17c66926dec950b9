import Foundation
import NFCTags
import TestSupport
import Testing

@testable import ProvisionCLI

@Suite(.serialized)
struct ReaderFactoryNFCTests {
    /// `nfc:` specs open a libnfc reader on a `provision emulate pn532` child; a second open of the
    /// same device is busy (exit 75); a missing device is unavailable (exit 69).
    @Test func nfcSpecsOpenLibnfcReaders() async throws {
        let pathFile = try Fixtures.temporaryDirectory("factory").appendingPathComponent("pty")
        let process = Process()
        process.executableURL = ProvisionProcess.executableURL
        process.arguments = ["emulate", "pn532", "--path-file", pathFile.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let child = UncheckedProcess(process)
        defer {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        var slave = ""
        for _ in 0..<1_000 where slave.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
            slave =
                (try? String(contentsOf: pathFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                ?? ""
        }
        try #require(slave.hasPrefix("/tmp/pn532."))

        let readers = try await ReaderFactory.open(["nfc:pn532_uart:" + slave + "?slack=1000"])
        let reader = try #require(readers.first)
        #expect(readers.count == 1)
        #expect(reader.name == "nfc:pn532_uart:" + slave)
        guard case .tag = try await reader.poll(timeoutMilliseconds: 500) else {
            Issue.record("no tag through the factory's reader")
            return
        }
        do {
            _ = try await ReaderFactory.open(["nfc:pn532_uart:" + slave])
            Issue.record("the same device opened twice")
        } catch {
            #expect(error.exitCode == .temporaryFailure)
            #expect(error.message.contains("in use by process \(getpid())"))
        }
        do {
            _ = try await ReaderFactory.open(["nfc:pn532_uart:/dev/provision-no-such-device"])
            Issue.record("a missing device opened")
        } catch {
            #expect(error.exitCode == .unavailable)
        }
        kill(process.processIdentifier, SIGTERM)
        try await onThread { child.process.waitUntilExit() }
    }
}
