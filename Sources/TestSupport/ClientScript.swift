import Foundation
import NDEF

/// Runs a client script on a host stack nobody here wrote (nfcpy, pyscard) and reads the JSON report it prints
/// as its last stdout line: the one way tests drive outside clients.
public enum ClientScript {
    /// What one run printed and returned.
    public struct Outcome: Sendable {
        /// Exit status (SIGKILLed after the timeout: 9 as a signal status).
        public var status: Int32
        /// Everything written to stdout.
        public var stdout: String
        /// Everything written to stderr.
        public var stderr: String

        /// The JSON object on the last line of stdout.
        public var json: [String: Any]? {
            guard let line = stdout.split(separator: "\n").last else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }

        /// A hex string field of `json` decoded to bytes.
        public func bytes(_ key: String) -> [UInt8]? { (json?[key] as? String).flatMap { Hex.bytes($0) } }

        /// The URI records of the `ndef` list as the client reported them; `nil` when it saw no NDEF.
        public var uris: [String]? {
            (json?["ndef"] as? [[String: Any]])?.map { ($0["uri"] as? String) ?? "" }
        }
    }

    /// Runs `executable arguments` with `environment` added, stdin empty, SIGKILLed after `timeoutSeconds`.
    /// stderr goes to a file, so a chatty client never blocks on a full pipe while stdout is read.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeoutSeconds: Int = 60
    ) throws -> Outcome {
        let folder = try Fixtures.temporaryDirectory("client")
        defer { try? FileManager.default.removeItem(at: folder) }
        let errURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeoutSeconds), execute: watchdog)
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: stderr)
    }
}
