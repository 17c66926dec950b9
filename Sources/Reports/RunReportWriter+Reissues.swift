import Foundation

/// The reissued rows (`provision reissue`) in summary.md and report.html.
extension RunReportWriter {
    /// `## Reissued rows` for summary.md, or nothing when no row was reissued.
    static func reissueSection(_ report: RunReport) -> String {
        guard !report.reissues.isEmpty else { return "" }
        var text = "\n## Reissued rows\n\n| row | reissues row | by | why | when |\n|---|---|---|---|---|\n"
        for line in report.reissues {
            let detail = line.detail.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(
                of: "\n", with: " ")
            let when = line.time.map(timestamp) ?? "—"
            text += "| \(line.row) | \(line.original) | \(line.by) | \(detail) | \(when) |\n"
        }
        return text
    }

    /// The reissued rows as an HTML section, or nothing when no row was reissued.
    static func reissueHTML(_ report: RunReport) -> String {
        guard !report.reissues.isEmpty else { return "" }
        let rows = report.reissues.map {
            [String($0.row), String($0.original), $0.by, $0.detail, $0.time.map(timestamp) ?? "—"]
        }
        return "<section>\n<h2>Reissued rows</h2>\n"
            + HTMLPage.table(
                caption: "\(rows.count) row(s) issued again for destroyed tags",
                headers: ["row", "reissues row", "by", "why", "when"], rows: rows, numeric: [0, 1], nowrap: [4])
            + "</section>\n"
    }
}
