import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension ProvisionProcess {
    /// A `provision` process started in the background, for tests that signal it while it works (SIGSTOP and
    /// SIGCONT a station past its lease, SIGINT).
    public final class Background: Sendable {
        private let process: Process
        private let stdout: URL
        private let stderr: URL

        fileprivate init(process: Process, stdout: URL, stderr: URL) {
            self.process = process
            self.stdout = stdout
            self.stderr = stderr
        }

        /// Sends `signal` to the process.
        public func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

        /// Whether the process has not exited yet.
        public var isRunning: Bool { process.isRunning }

        /// Whether the process is stopped (SIGSTOP has taken effect): its state in /proc is `T`.
        public var isStopped: Bool { ProvisionProcess.isStopped(pid: process.processIdentifier) }

        /// Waits for the process off the cooperative pool and returns what it printed.
        public func wait() async throws -> Outcome {
            try await onThread { [process, stdout, stderr] in
                let status = process.waitReaping()
                return Outcome(
                    status: status, stdout: try String(contentsOf: stdout, encoding: .utf8),
                    stderr: try String(contentsOf: stderr, encoding: .utf8))
            }
        }
    }

    /// Whether process `pid` is stopped (SIGSTOP has taken effect): its state in /proc is `T`.
    public static func isStopped(pid: pid_t) -> Bool { state(pid: pid) == "T" }

    /// Process `pid`'s state letter in /proc (`R`, `S`, `T`, `Z` for a zombie, …); `nil` when it is gone.
    public static func state(pid: pid_t) -> Character? {
        let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // "pid (comm) STATE …": the state follows the command name's closing parenthesis.
        guard let stat, let close = stat.lastIndex(of: ")") else { return nil }
        return stat[close...].dropFirst().trimmingCharacters(in: .whitespaces).first
    }

    /// Starts `provision` with `arguments` in `directory`, its output going to files there.
    public static func start(_ arguments: [String], directory: URL, name: String = "background") throws -> Background {
        let process = Process()
        process.executableURL = executableURL
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["LIBNFC_LOG_LEVEL"] = environment["LIBNFC_LOG_LEVEL"] ?? "0"
        process.environment = environment
        let stdout = directory.appendingPathComponent("\(name).out")
        let stderr = directory.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Background(process: process, stdout: stdout, stderr: stderr)
    }
}
