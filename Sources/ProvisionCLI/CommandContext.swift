import Foundation
import Provisioning
import Support
import Synchronization

/// Where a command writes text: the real stdout/stderr, or a buffer in tests.
public final class TextSink: Sendable {
    private enum Target {
        case fileDescriptor(Int32)
        case buffer
    }
    // Mutex guards both the buffer and the order of writes to the descriptor.
    private let state: Mutex<[UInt8]>
    private let descriptor: Int32?

    /// A sink writing to a file descriptor (1 or 2).
    public init(fileDescriptor: Int32) {
        descriptor = fileDescriptor
        state = Mutex([])
    }

    /// A sink collecting everything in memory (tests).
    public init() {
        descriptor = nil
        state = Mutex([])
    }

    /// Writes text as-is (no newline added).
    public func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }

    /// Writes raw bytes.
    public func write(bytes: [UInt8]) {
        state.withLock { buffer in
            if let descriptor {
                var offset = 0
                while offset < bytes.count {
                    let written = bytes[offset...].withUnsafeBytes {
                        Foundation.write(descriptor, $0.baseAddress, $0.count)
                    }
                    if written <= 0 { break }
                    offset += written
                }
            } else {
                buffer.append(contentsOf: bytes)
            }
        }
    }

    /// Writes one line followed by `\n`.
    public func line(_ text: String = "") { write(text + "\n") }

    /// Everything written so far (buffer sinks only).
    public var text: String { state.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Whether this sink is a terminal (never true for buffers).
    public var isTerminal: Bool {
        guard let descriptor else { return false }
        return isatty(descriptor) == 1
    }
}

/// Everything a command may touch of the outside world, injected so tests can run commands in-process.
public struct CommandContext: Sendable {
    /// Standard output.
    public var out: TextSink
    /// Standard error (diagnostics, prompts, progress).
    public var err: TextSink
    /// The output layer over `out` and `err` that commands report through (text, or `--json`).
    public var output: Output
    /// Environment variables.
    public var environment: [String: String]
    /// The working directory that relative command-line paths resolve against.
    public var currentDirectory: URL
    /// Reads all of standard input (for `-` arguments).
    public var readStandardInput: @Sendable () -> Data
    /// Reads one line of standard input without its newline, `nil` at end of input (confirmations).
    public var readStandardInputLine: @Sendable () -> String?
    /// The operator's request to stop between tags: the first Ctrl-C makes it, and tests may make it.
    public var stop = StopRequest()
    /// Whether this context is the real process, whose SIGINT `ProvisionCLI.run` handles (`Interrupts`);
    /// in-process tests leave the signal alone.
    public var handlesSignals = false

    /// Creates a context; without `readStandardInputLine`, a line is the first line of
    /// `readStandardInput()`.
    public init(
        out: TextSink, err: TextSink, environment: [String: String], currentDirectory: URL,
        readStandardInput: @escaping @Sendable () -> Data,
        readStandardInputLine: (@Sendable () -> String?)? = nil
    ) {
        self.out = out
        self.err = err
        output = Output(format: .text, out: out, err: err)
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.readStandardInput = readStandardInput
        self.readStandardInputLine =
            readStandardInputLine ?? {
                let text = String(decoding: readStandardInput(), as: UTF8.self)
                guard !text.isEmpty else { return nil }
                return String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            }
    }

    /// The real process: stdout, stderr, the process environment and working directory.
    public static func standard() -> CommandContext {
        var context = CommandContext(
            out: TextSink(fileDescriptor: 1), err: TextSink(fileDescriptor: 2),
            environment: ProcessInfo.processInfo.environment,
            currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            readStandardInput: { FileHandle.standardInput.readDataToEndOfFile() },
            readStandardInputLine: { Swift.readLine(strippingNewline: true) })
        context.handlesSignals = true
        return context
    }

    /// An in-memory context for tests.
    public static func buffered(
        environment: [String: String] = [:], currentDirectory: URL? = nil, standardInput: Data = Data()
    ) -> CommandContext {
        CommandContext(
            out: TextSink(), err: TextSink(), environment: environment,
            currentDirectory: currentDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            readStandardInput: { standardInput })
    }

    /// A path as commands print it: relative to the working directory when it lies inside it (`DisplayPath`).
    public func displayPath(_ url: URL) -> String { DisplayPath.make(url, relativeTo: currentDirectory) }

    /// Resolves a command-line path against the working directory.
    public func url(forPath path: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        return currentDirectory.appendingPathComponent(path)
    }
}
