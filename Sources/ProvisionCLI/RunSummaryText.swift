import Foundation
import Provisioning
import Reports

/// The end-of-run summary table printed on stdout (human-readable; not a stable format — use
/// `--json` or `summary.json` for scripts).
enum RunSummaryText {
    static func render(_ report: RunReport, reportsFolder: String) -> String {
        let figures = RunFigures(report)
        let rows = report.rows
        var lines = [
            "job \(report.job): \(rows.done)/\(rows.total) done, \(rows.failed) failed, \(rows.burned) burned, "
                + "\(rows.claimed) claimed (waiting for their tag), \(rows.pending) pending",
            "  tags per hour        \(ProgressDisplay.number(figures.tagsPerHour, 0))",
            "  first-pass yield     \(ProgressDisplay.number(figures.firstPassYield * 100, 1)) %",
            "  retries              \(figures.retries)",
            "  exchanges per tag    \(ProgressDisplay.number(figures.exchangesPerTag, 1))",
        ]
        if let air = figures.airtimePerTagMilliseconds, let ratio = figures.measuredOverAirtime {
            lines.append(
                "  modelled airtime     \(ProgressDisplay.number(air, 2)) ms/tag"
                    + " (measured ÷ airtime \(ProgressDisplay.number(ratio, 3)))")
            for note in figures.airtimeNotes { lines += wrap(note, width: 100).map { "  " + $0 } }
        }
        lines.append("  per phase (ms)       p50 / p95 / max")
        for phase in Phase.allCases {
            guard let spread = figures.phases[phase] else { continue }
            let name = phase.rawValue.padding(toLength: 19, withPad: " ", startingAt: 0)
            let values = [spread.p50, spread.p95, spread.max].map { ProgressDisplay.number($0, 2) }
            lines.append("    \(name)" + values.joined(separator: " / "))
        }
        if !figures.failuresByClass.isEmpty {
            lines.append("  failures by class")
            for failure in FailureClass.allCases {
                if let count = figures.failuresByClass[failure] { lines.append("    \(failure.rawValue): \(count)") }
            }
        }
        lines.append("reports: \(reportsFolder)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` broken at spaces into lines of at most `width` characters (longer words stay whole).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
