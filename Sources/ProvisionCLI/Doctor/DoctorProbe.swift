import Dispatch
import Foundation
import Synchronization

/// Runs `provision doctor`'s probes with a time bound each, so the command never hangs.
///
/// A probe that calls into a C library (libnfc's device scan, `SCardEstablishContext`, `statvfs` on a
/// dead network mount) cannot be cancelled; it runs on a thread of its own, and when its bound passes
/// the check reports a timeout and the thread is left behind (the process exits right after the report).
/// External tools are run with a deadline and terminated when it passes.
enum DoctorProbe {
    /// The bound of one library probe (reader listing) in seconds.
    static let librarySeconds = 5.0
    /// The bound of one external tool (`dpkg-query`, `timedatectl`) in seconds.
    static let toolSeconds = 3.0
    /// The bound of a file-system probe (`statvfs`, `access`) in seconds.
    static let fileSystemSeconds = 2.0

    /// What an external tool did.
    enum ToolResult: Sendable, Hashable {
        /// Not found on `PATH`, `/usr/sbin` or `/sbin`, or it could not be started.
        case missing
        /// Still running when its bound passed (it was terminated).
        case timedOut
        /// It exited with `status`, printing `output` (stdout) and `errors` (stderr).
        case finished(status: Int32, output: String, errors: String)
    }

    /// `body`'s result, or `nil` when it has not returned within `seconds`.
    static func bounded<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let gate = ResumeOnce(continuation)
            Thread.detachNewThread { gate.resume(body()) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { @Sendable in gate.resume(nil) }
        }
    }

    /// Runs `tool` with `arguments` in the C locale, terminating it after `seconds`.
    static func run(_ tool: String, _ arguments: [String], seconds: Double = toolSeconds) async -> ToolResult {
        let environment = ProcessInfo.processInfo.environment
        guard let path = locate(tool, searchPath: environment["PATH"] ?? "") else { return .missing }
        let result = await bounded(seconds: seconds + 1) {
            runBlocking(path, arguments, seconds: seconds, environment: environment)
        }
        return result ?? .timedOut
    }

    /// The executable `tool` on `searchPath` (colon-separated), then in `/usr/sbin` and `/sbin`
    /// (daemons such as `pcscd` live there, outside a normal user's `PATH`).
    static func locate(_ tool: String, searchPath: String) -> String? {
        let folders = searchPath.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        for folder in folders where !folder.isEmpty {
            let candidate = folder + "/" + tool
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// A duration for people: `2 s`, `0.5 s`.
    static func describe(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    private static func runBlocking(
        _ path: String, _ arguments: [String], seconds: Double, environment: [String: String]
    ) -> ToolResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = environment
        environment["LC_ALL"] = "C"
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return .missing }
        let timedOut = Shared(false)
        let deadline = DispatchWorkItem {
            guard process.isRunning else { return }
            timedOut.set(true)
            process.terminate()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: deadline)
        let errorData = Shared(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData.set(errors.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        deadline.cancel()
        if timedOut.get() { return .timedOut }
        return .finished(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData.get(), as: UTF8.self))
    }
}

/// Resumes a continuation once: the first of a probe's answer and its deadline wins.
private final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T?, Never>?>

    init(_ continuation: CheckedContinuation<T?, Never>) { self.continuation = Mutex(continuation) }

    func resume(_ value: T?) {
        let pending = continuation.withLock { stored in
            defer { stored = nil }
            return stored
        }
        pending?.resume(returning: value)
    }
}

/// A value shared between a probe's threads.
private final class Shared<Value: Sendable>: Sendable {
    private let state: Mutex<Value>

    init(_ value: Value) { state = Mutex(value) }

    func set(_ value: Value) { state.withLock { $0 = value } }
    func get() -> Value { state.withLock { $0 } }
}
