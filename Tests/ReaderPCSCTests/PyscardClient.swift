import Foundation
import NDEF
import TestSupport

/// Runs `Tests/Fixtures/pyscard/type4_ndef.py` with Debian's `/usr/bin/python3` (`python3-pyscard`,
/// installed by `make test-deps`): an independent PC/SC client reading a Type 4 tag's NDEF file.
enum PyscardClient {
    /// What the script reported (its last stdout line, JSON), plus its exit status and stderr.
    struct Report: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String

        /// The JSON object on the last line of stdout.
        var json: [String: Any]? {
            guard let line = stdout.split(separator: "\n").last else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }

        /// A hex string field decoded to bytes.
        func bytes(_ key: String) -> [UInt8]? { (json?[key] as? String).flatMap { Hex.bytes($0) } }
    }

    /// Reads the NDEF file of the tag on `reader`; with `write`, writes that message first (tear-safe).
    static func run(reader: String, write: [UInt8]? = nil, timeoutSeconds: Int = 60) async throws -> Report {
        var arguments = [Fixtures.url("pyscard/type4_ndef.py").path, reader]
        if let write { arguments += ["--write", Hex.compact(write)] }
        let socket = PCSCDaemon.socketPath
        let all = arguments
        return try await onThread { try python(all, socket: socket, timeoutSeconds: timeoutSeconds) }
    }

    private static func python(_ arguments: [String], socket: String, timeoutSeconds: Int) throws -> Report {
        let folder = try Fixtures.temporaryDirectory("pyscard")
        defer { try? FileManager.default.removeItem(at: folder) }
        let errURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PCSCLITE_CSOCK_NAME"] = socket
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = DispatchTime.now() + .seconds(timeoutSeconds)
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: deadline, execute: watchdog)
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        return Report(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: stderr)
    }
}
