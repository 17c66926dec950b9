import Foundation
import Synchronization
import TestSupport
import Testing

/// Bytes appended by one thread and read by another.
private final class Collected: Sendable {
    private let data = Mutex(Data())
    func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }
    var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}

/// A `provision` child whose stderr is collected as it comes, so a test can act on a prompt.
private final class WatchedProcess: Sendable {
    let process: UncheckedProcess
    private let errors = Collected()
    private let input: Pipe
    private let output: Pipe

    init(_ arguments: [String], directory: URL) throws {
        let process = Process()
        process.executableURL = ProvisionProcess.executableURL
        process.arguments = arguments
        process.currentDirectoryURL = directory
        input = Pipe()
        output = Pipe()
        let errorPipe = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errorPipe
        try process.run()
        self.process = UncheckedProcess(process)
        let handle = errorPipe.fileHandleForReading
        Thread.detachNewThread { [errors] in
            while case let chunk = handle.availableData, !chunk.isEmpty { errors.append(chunk) }
        }
    }

    var stderr: String { errors.text }

    /// Waits until stderr contains `text` (or the process ends).
    func waitFor(_ text: String) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while !stderr.contains(text), process.process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(stderr.contains(text), "no '\(text)' on stderr: \(stderr)")
    }

    func interrupt() { process.process.interrupt() }

    func type(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// Waits for the end; returns the status and stdout.
    func finish() async throws -> (status: Int32, stdout: String) {
        let process = process
        let output = output
        return try await onThread {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.process.waitUntilExit()
            return (process.process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }
}

/// Ctrl-C is handled in one place (`Interrupts` in `ProvisionCLI.run`) for every command that works on
/// tags: the first stops between tags (a wait for a tag ends, the tag in progress finishes) and exits 130,
/// the second exits at once.
@Suite(.serialized) struct InterruptTests {
    /// A simulated reader whose first tag arrives only after ten minutes: the command is left waiting.
    private static func emptyField(_ store: URL) -> String {
        "sim:ntag215?arrival=600000&store=\(store.path)&uid=04E10000000001"
    }

    @Test(arguments: [
        ["write", "--uri", "https://example.com/i"], ["lock", "--yes"], ["inspect"],
    ])
    func theFirstCtrlCEndsTheWaitForATagWith130(_ command: [String]) async throws {
        let folder = try Fixtures.temporaryDirectory("interrupt-wait")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("tags")
        let child = try WatchedProcess(
            command + ["--reader", Self.emptyField(store), "--timeout", "600"], directory: folder)
        try await child.waitFor("place a tag")
        child.interrupt()
        let (status, _) = try await child.finish()
        #expect(status == 130, "\(child.stderr)")
        #expect(child.stderr.contains("interrupted before a tag arrived: nothing was written"))
        #expect(!child.stderr.contains("interrupted again"))
        let images = (try? FileManager.default.contentsOfDirectory(atPath: store.path)) ?? []
        #expect(!images.contains { $0.hasSuffix(".bin") }, "a tag was touched: \(images)")
    }

    @Test func theSecondCtrlCExitsAtOnce() async throws {
        let folder = try Fixtures.temporaryDirectory("interrupt-twice")
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = try WatchedProcess(
            ["inspect", "--reader", Self.emptyField(folder.appendingPathComponent("tags")), "--timeout", "600"],
            directory: folder)
        try await child.waitFor("place a tag")
        child.interrupt()
        try await child.waitFor("finishing the tag in progress")
        child.interrupt()
        let (status, _) = try await child.finish()
        #expect(status == 130)
    }

    @Test func theFirstCtrlCLetsTheTagInProgressFinishThenExits130() async throws {
        let folder = try Fixtures.temporaryDirectory("interrupt-lock")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("tags")
        // `lock` holds the tag while it asks for confirmation: Ctrl-C lands with the tag in progress.
        let child = try WatchedProcess(
            ["lock", "--reader", "sim:ntag213?store=\(store.path)&uid=04E20000000001"], directory: folder)
        try await child.waitFor("Type LOCK to continue")
        child.interrupt()
        try await child.waitFor("finishing the tag in progress")
        child.type("LOCK")
        let (status, stdout) = try await child.finish()
        #expect(status == 130, "\(child.stderr)")
        #expect(stdout.contains("locked    the tag is permanently read-only"), "\(stdout)")
        // The stored image is locked: static lock bytes (page 02h bytes 2–3) set, CC write access 0Fh.
        let image = try [UInt8](Data(contentsOf: store.appendingPathComponent("04E20000000001.bin")))
        #expect(Array(image[10...11]) == [0xFF, 0xFF])
        #expect(image[15] == 0x0F)
    }
}
