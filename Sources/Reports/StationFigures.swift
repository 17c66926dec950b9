import Foundation
import Ledger
import Provisioning

/// One station's part of a run on a line of stations (`provision run --station NAME`): its readers, tags
/// done, failed attempts, yield, rate and last failure. Computed from a `RunReport` only.
///
/// A reader's station is the part of its name before the first `/` (`line-a/sim:CHIP`), as
/// `OpenClaim.station(ofReader:)` reads it; readers without one (`sim:CHIP`) form one group of their own.
/// A run with fewer than two such groups, or with no station name at all, has no station figures, so its
/// report looks as a one-station report always did.
public struct StationFigures: Sendable, Hashable {
    /// The label of the group of readers that name no station (not a valid station name, so it never clashes).
    public static let unnamedLabel = "(no station)"

    /// The station's name; `nil` for the readers that name none.
    public var station: String?
    /// Its readers, in order of first attempt (then any reader seen only on a tag).
    public var readers: [String]
    /// Its attempts, those that succeeded (tags done) and those that failed (duplicates included).
    public var attempts: Int, done: Int, failed: Int
    /// Tags done ÷ attempts (0…1; 0 without attempts).
    public var yield: Double
    /// Tags done per hour of the time the line was running (`RunReport.activeSeconds`, so the stations' rates
    /// add up to the run's).
    public var tagsPerHour: Double
    /// Its latest failed attempt.
    public var lastFailure: RunReport.AttemptLine?

    /// The name shown in tables and chart legends.
    public var label: String { station ?? Self.unnamedLabel }

    /// The station groups of `report` in order of first attempt (then those seen only on tags, sorted), or
    /// none when the run had fewer than two groups or no named station.
    public static func groups(_ report: RunReport) -> [String?] {
        var groups: [String?] = []
        for reader in report.readers where !groups.contains(OpenClaim.station(ofReader: reader)) {
            groups.append(OpenClaim.station(ofReader: reader))
        }
        let others = Set(report.tags.map { OpenClaim.station(ofReader: $0.reader) }).filter { !groups.contains($0) }
        groups += others.sorted { ($0 ?? "") < ($1 ?? "") }
        guard groups.count > 1, groups.contains(where: { $0 != nil }) else { return [] }
        return groups
    }

    /// Every station's figures in `report` (empty for a one-station run; see `groups`).
    public static func of(_ report: RunReport) -> [StationFigures] {
        let groups = groups(report)
        guard !groups.isEmpty else { return [] }
        let seconds = report.activeSeconds()
        var readers = report.readers
        for reader in Set(report.tags.map(\.reader)).sorted() where !readers.contains(reader) { readers.append(reader) }
        return groups.map { group in
            let attempts = report.attempts.filter { OpenClaim.station(ofReader: $0.reader) == group }
            let failures = attempts.filter { $0.failure != nil }
            let done = attempts.count - failures.count
            let last = failures.enumerated().max {
                $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset
            }
            return StationFigures(
                station: group, readers: readers.filter { OpenClaim.station(ofReader: $0) == group },
                attempts: attempts.count,
                done: done, failed: failures.count,
                yield: attempts.isEmpty ? 0 : Double(done) / Double(attempts.count),
                tagsPerHour: seconds > 0 ? Double(done) / seconds * 3600 : 0, lastFailure: last?.element)
        }
    }

    /// The last failure as one line: `class: detail (time)`, or `—`.
    public var lastFailureText: String {
        guard let failure = lastFailure else { return "—" }
        let detail = failure.detail.isEmpty ? "" : ": \(failure.detail)"
        return "\(failure.failure?.rawValue ?? "failed")\(detail) (\(RunReportWriter.timestamp(failure.time)))"
    }

    /// The stations table of report.html (empty when `stations` is).
    static func htmlTable(_ stations: [StationFigures]) -> String {
        guard !stations.isEmpty else { return "" }
        let rows = stations.map { $0.cells(SVG.fixed) }
        return "<section>\n<h2>Stations</h2>\n"
            + HTMLPage.table(
                caption: "\(stations.count) stations on this job", headers: Self.headers, rows: rows,
                numeric: [2, 3, 4, 5], nowrap: [0])
            + "</section>\n"
    }

    /// The stations table of summary.md (empty when `stations` is).
    static func markdownTable(_ stations: [StationFigures]) -> String {
        guard !stations.isEmpty else { return "" }
        var text = "\n## Stations\n\n| " + headers.joined(separator: " | ") + " |\n"
        text += "|" + String(repeating: "---|", count: headers.count) + "\n"
        for station in stations {
            text += "| " + station.cells(RunReportWriter.format).map(markdownCell).joined(separator: " | ") + " |\n"
        }
        return text
    }

    /// A cell's text with `|` escaped and line breaks as spaces, so it stays in its Markdown table cell.
    private static func markdownCell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    /// The station's row of the stations table (`headers`), numbers written by `number(value, digits)`.
    private func cells(_ number: (Double, Int) -> String) -> [String] {
        [
            label, readers.joined(separator: ", "), String(done), String(failed), number(yield * 100, 1) + " %",
            number(tagsPerHour, 0), lastFailureText,
        ]
    }

    /// The columns of the stations table.
    static let headers = ["station", "readers", "tags done", "failed", "yield", "tags/h", "last failure"]
}
