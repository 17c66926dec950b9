import Foundation
import TestSupport

/// A `provision` child process running in the background (an emulator, or a `run` that another
/// process must find busy); output goes to files so the child never blocks on a pipe. Killed on
/// deinit if still running.
final class ChildProvision: @unchecked Sendable {
    // @unchecked: `process` is started in init and only waited for by one caller at a time.
    let process = Process()
    let directory: URL
    private let outURL: URL
    private let errURL: URL

    /// Starts `provision arguments` in `workingDirectory` (default: a fresh temporary folder), with `environment` added
    /// to this process's, through `launcher` (a command that execs the rest, e.g. `setpriv …`) when one is given.
    init(
        _ arguments: [String], workingDirectory: URL? = nil, environment extra: [String: String] = [:],
        launcher: [String] = []
    ) throws {
        directory = try Fixtures.temporaryDirectory("child")
        outURL = directory.appendingPathComponent("stdout")
        errURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [ProvisionProcess.executableURL.path] + arguments
        } else {
            process.executableURL = ProvisionProcess.executableURL
            process.arguments = arguments
        }
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        var environment = ProcessInfo.processInfo.environment
        environment["LIBNFC_LOG_LEVEL"] = "0"
        environment.merge(extra) { $1 }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
    }

    /// Starts `provision emulate pn532 --path-file F ARGS` and waits until it has published its pty.
    static func pn532(_ arguments: [String]) async throws -> (ChildProvision, String) {
        let folder = try Fixtures.temporaryDirectory("pn532-run")
        let pathFile = folder.appendingPathComponent("pty")
        let child = try ChildProvision(["emulate", "pn532", "--path-file", pathFile.path] + arguments)
        var slave = ""
        for _ in 0..<1_000 where slave.isEmpty && child.process.isRunning {
            try await Task.sleep(for: .milliseconds(10))
            slave =
                (try? String(contentsOf: pathFile, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        }
        return (child, slave)
    }

    var pid: Int32 { process.processIdentifier }
    var stdout: String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

    /// Waits (off the cooperative pool) for the child to exit and returns its status (`Process.waitReaping`).
    func wait() async throws -> Int32 {
        try await onThread { [process] in process.waitReaping() }
    }

    /// SIGTERM, then the exit status.
    @discardableResult
    func stop() async throws -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        return try await wait()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
