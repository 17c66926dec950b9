import Foundation
import Provisioning

/// `report.html` for an audit, one self-contained page.
///
/// Inline CSS and SVG, no scripts, nothing fetched: the header, the results chart, every finding that
/// did not pass, and the first and last passes. Same report, same bytes.
public enum AuditReportHTML {
    /// How many of the first and of the last passing tags are listed.
    public static let passesListed = 10

    /// The page for `report`.
    public static func render(_ report: AuditReport) -> String {
        let counts = report.counts
        var body = "<header>\n<h1>Audit report — job \(HTMLPage.escape(report.job))</h1>\n"
        body += HTMLPage.facts([
            ("when", RunReportWriter.timestamp(report.when), code: false),
            ("readers", report.readers.isEmpty ? "—" : report.readers.joined(separator: ", "), code: false),
            ("tags read", String(report.findings.count), code: false),
        ])
        body += "<div class=\"kpis\">\n"
        for status in AuditStatus.allCases {
            body += "<div class=\"kpi\"><span class=\"value\">\(counts[status] ?? 0)</span>"
            body += "<span class=\"name\">\(status.rawValue)</span></div>\n"
        }
        body += "</div>\n</header>\n<section>\n<h2>Results</h2>\n"
        body += HTMLPage.figure(
            AuditChart(report).svg(prefix: "au"),
            caption: "Tags read by result: pass, mismatch (content differs), unknown (not in the ledger), "
                + "unlocked (content matches, lock missing), authFailed (password refused), "
                + "configMismatch (content matches, protection, mirror or lock configuration differs), "
                + "identityMismatch (pages 0–2 disagree with the anticollision UID: a clone).")
        body += "</section>\n<section>\n<h2>Findings that did not pass</h2>\n"
        let headers = ["UID", "row", "status", "detail", "time"]
        func line(_ finding: AuditReport.Finding) -> [String] {
            [
                finding.uid, finding.row.map(String.init) ?? "—", finding.status.rawValue, finding.detail,
                RunReportWriter.timestamp(finding.time),
            ]
        }
        let problems = report.findings.filter { $0.status != .pass }
        body += HTMLPage.table(
            caption: "\(problems.count) finding(s), in read order", headers: headers, rows: problems.map(line),
            numeric: [1], code: [0], nowrap: [0, 4])
        body += "</section>\n<section>\n<h2>Passed</h2>\n"
        let passes = report.findings.filter { $0.status == .pass }
        if passes.count <= 2 * passesListed {
            body += HTMLPage.table(
                caption: "All \(passes.count) passing tag(s), in read order", headers: headers,
                rows: passes.map(line), numeric: [1], code: [0], nowrap: [0, 4])
        } else {
            body += HTMLPage.table(
                caption: "First \(passesListed) of \(passes.count) passing tags", headers: headers,
                rows: passes.prefix(passesListed).map(line), numeric: [1], code: [0], nowrap: [0, 4])
            body += HTMLPage.table(
                caption: "Last \(passesListed) passing tags", headers: headers,
                rows: passes.suffix(passesListed).map(line), numeric: [1], code: [0], nowrap: [0, 4])
        }
        body += "</section>\n"
        return HTMLPage.document(title: "Audit report — \(report.job)", body: body)
    }
}
