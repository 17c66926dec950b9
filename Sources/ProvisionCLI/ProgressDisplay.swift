import Foundation
import Reports

/// Live progress for the operator: one redrawn line on a terminal, plain log lines otherwise,
/// nothing with `--quiet` (errors still go to stderr).
struct ProgressDisplay: Sendable {
    enum Mode: Sendable { case terminal, lines, quiet }

    let sink: TextSink
    let mode: Mode

    init(sink: TextSink, quiet: Bool) {
        self.sink = sink
        mode = quiet ? .quiet : (sink.isTerminal ? .terminal : .lines)
    }

    /// An operator prompt ("place tag", "remove tag", "remove extra tags").
    func prompt(_ text: String) {
        switch mode {
        case .terminal: sink.write("\r\u{1B}[K» \(text)")
        case .lines: sink.line("» \(text)")
        case .quiet: break
        }
    }

    /// The status line after each tag: the job's done/total (every station), this process's share, the line's
    /// rate and ETA, first-pass yield, the outbox's unpublished events (`run --publish`, when any), last UID and
    /// outcome.
    func status(
        done: Int, total: Int, share: String, perMinute: Double, etaSeconds: Double?, yield: Double,
        unpublished: Int = 0, last: String
    ) {
        var text = "\(done)/\(total) done · \(share) · \(Self.number(perMinute, 1)) tags/min"
        if let etaSeconds { text += " · ETA \(Self.duration(etaSeconds))" }
        text += " · FPY \(Self.number(yield * 100, 1)) %"
        if unpublished > 0 { text += " · \(unpublished) unpublished" }
        text += " · \(last)"
        switch mode {
        case .terminal: sink.write("\r\u{1B}[K\(text)")
        case .lines: sink.line(text)
        case .quiet: break
        }
    }

    /// Ends the live line before a summary is printed.
    /// An operator message that must be seen: on its own line, even with `--quiet`.
    func alert(_ text: String) {
        if mode == .terminal { sink.write("\r\u{1B}[K") }
        sink.line("attention: \(text)")
    }

    func finish() {
        if mode == .terminal { sink.write("\r\u{1B}[K") }
    }

    static func number(_ value: Double, _ digits: Int) -> String {
        value.formatted(.number.precision(.fractionLength(digits)).grouping(.never))
    }

    static func duration(_ seconds: Double) -> String { LineStatus.duration(seconds) }
}
