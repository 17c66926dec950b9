import Foundation

/// Runs the built `provision` executable as a user would, for end-to-end tests.
public enum ProvisionProcess {
    /// What a finished run printed and returned.
    public struct Outcome: Sendable {
        /// Exit status.
        public var status: Int32
        /// Everything written to stdout.
        public var stdout: String
        /// Everything written to stderr.
        public var stderr: String
    }

    /// The built executable, next to the test bundle (`.build/<triple>/debug/provision`).
    public static var executableURL: URL { executableURL(named: "provision") }

    /// The package's built executable `name`, next to the test bundle (`.build/<triple>/debug/<name>`).
    public static func executableURL(named name: String) -> URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0])
        while url.pathComponents.count > 1 {
            let candidate = url.deletingLastPathComponent().appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            url = url.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent(name)
    }

    /// Runs `provision` (or the package's executable `executable`) with `arguments`, optional stdin
    /// bytes, in `directory`, and waits for it.
    public static func run(
        _ arguments: [String], stdin: Data? = nil, directory: URL? = nil, environment: [String: String] = [:],
        executable: String = "provision"
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executableURL(named: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["LIBNFC_LOG_LEVEL"] = env["LIBNFC_LOG_LEVEL"] ?? "0"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let outPipe = Pipe()
        let errPipe = Pipe()
        let inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        try process.run()
        if let stdin { inPipe.fileHandleForWriting.write(stdin) }
        try inPipe.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        let errData = LockedData()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData.set(errPipe.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let status = process.waitReaping()
        return Outcome(
            status: status, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.get(), as: UTF8.self))
    }
}

/// A Data box shared between the reading thread and the waiting one.
private final class LockedData: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}
