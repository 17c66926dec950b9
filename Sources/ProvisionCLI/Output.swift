import Foundation
import Reports
import Synchronization

/// The one layer every command reports through: result text, diagnostics and the single `--json` document.
///
/// Without `--json` (`.text`), result text goes to stdout and diagnostics to stderr, as they always
/// did. With `--json` (`.json`), stdout carries exactly one JSON document — the command's result, or
/// an error document when it could not produce one — and every human line (result text, prompts,
/// progress, `error:` lines) goes to stderr. The shapes are documented in docs/json.md.
public final class Output: Sendable {
    /// How the command was asked to report.
    public enum Format: Sendable, Hashable {
        /// Human text on stdout (the default).
        case text
        /// One JSON document on stdout (`--json`).
        case json
    }

    /// The format this command reports in.
    public let format: Format
    private let stdout: TextSink
    private let stderr: TextSink
    // Counts documents written, so a second one is refused and the entry point knows whether an
    // error still needs its own document.
    private let documents = Mutex(0)

    /// An output layer over the two sinks.
    public init(format: Format, out: TextSink, err: TextSink) {
        self.format = format
        stdout = out
        stderr = err
    }

    /// Whether `--json` was given.
    public var isJSON: Bool { format == .json }

    /// Where result text goes: stdout without `--json`, stderr with it (stdout holds the document).
    public var text: TextSink { isJSON ? stderr : stdout }

    /// Prompts, progress, notes and `error:` lines: stderr in either format.
    public var diagnostics: TextSink { stderr }

    /// Writes one line of result text.
    public func line(_ text: String = "") { self.text.line(text) }

    /// Writes result text as-is.
    public func write(_ text: String) { self.text.write(text) }

    /// Writes raw result bytes (`ndef encode --binary`).
    public func write(bytes: [UInt8]) { text.write(bytes: bytes) }

    /// Whether the command's JSON document has been written.
    public var wroteDocument: Bool { documents.withLock { $0 > 0 } }

    /// Writes `value` as the command's JSON document through the one document encoder (`JSONDocument`:
    /// snake_case keys, sorted, slashes unescaped), indented when `pretty`.
    ///
    /// - Throws: `CLIError` 70 when the value cannot be encoded.
    public func document<Value: Encodable>(_ value: Value, pretty: Bool = true) throws(CLIError) {
        guard let text = try? JSONDocument.text(value, pretty: pretty) else {
            throw CLIError(.software, "cannot encode the JSON document")
        }
        document(json: text)
    }

    /// Writes an encoded JSON document to stdout, ending it with a newline; a second document is dropped
    /// with a note on stderr, so stdout never holds two.
    public func document(json: String) {
        let first = documents.withLock { count in
            count += 1
            return count == 1
        }
        guard first else {
            stderr.line("note: a second JSON document was not printed")
            return
        }
        stdout.write(json.hasSuffix("\n") ? json : json + "\n")
    }

    /// Reports an error the command ends with: the `error:` line on stderr and, under `--json` when the
    /// command printed no document yet, the error document on stdout.
    public func fail(_ error: CLIError) {
        stderr.line("error: \(error.message)")
        guard isJSON, !wroteDocument else { return }
        document(json: ErrorDocument(error).jsonText())
    }
}

/// The `--json` document of a command that could not produce a result (docs/json.md, version 2).
///
/// `{"version": 2, "error": {"exit": N, "class": "...", "message": "...", "file", "line", "field"}}`;
/// `file`, `line` and `field` appear only where known.
struct ErrorDocument: Encodable, Sendable {
    /// The error itself.
    struct Body: Encodable, Sendable {
        var exit: Int32
        var `class`: String
        var message: String
        var file: String?
        var line: Int?
        var field: String?
    }

    var version = JSONDocument.version
    var error: Body

    init(_ error: CLIError) {
        self.error = Body(
            exit: error.exitCode.rawValue, class: error.className, message: error.message, file: error.file,
            line: error.line, field: error.field)
    }

    /// Pretty-printed with sorted keys, through the one document encoder.
    func jsonText() -> String {
        (try? JSONDocument.text(self)) ?? "{\"error\": {\"exit\": \(error.exit)}}\n"
    }
}
