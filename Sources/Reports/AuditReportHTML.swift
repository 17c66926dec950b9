import Foundation
import Provisioning

/// `report.html` for an audit, one self-contained page.
///
/// Inline CSS and SVG, no scripts, nothing fetched: the header, the results chart, every finding that
/// did not pass, and the first and last passes. Same report, same bytes.
public enum AuditReportHTML {
    /// How many of the first and of the last passing tags are listed.
    public static let passesListed = 10
    /// Findings that did not pass listed at each end (the rest are in the audit's CSV).
    public static let problemsListed = 100

    /// The page for `report`.
    public static func render(_ report: AuditReport) -> String {
        let counts = report.counts
        var body = "<header>\n<h1>Audit report — job \(HTMLPage.escape(report.job))</h1>\n"
        body += HTMLPage.facts([
            ("when", RunReportWriter.timestamp(report.when), code: false),
            ("readers", report.readers.isEmpty ? "—" : report.readers.joined(separator: ", "), code: false),
            ("tags read", String(report.findings.count), code: false),
        ])
        let failures = report.failures.count
        body +=
            report.passed
            ? "<div class=\"banner pass\">PASS: no tag failed the audit</div>\n"
            : "<div class=\"banner fail\">FAIL: \(failures) of \(report.findings.count) tag(s) failed the audit</div>\n"
        body += "<div class=\"kpis\">\n"
        for status in AuditStatus.allCases {
            let failed = status.isFailure && (counts[status] ?? 0) > 0
            body += "<div class=\"kpi\(failed ? " fail" : "")\"><span class=\"value\">\(counts[status] ?? 0)</span>"
            body += "<span class=\"name\">\(status.rawValue)</span></div>\n"
        }
        body += "</div>\n</header>\n<section>\n<h2>Results</h2>\n"
        body += HTMLPage.figure(
            AuditChart(report).svg(prefix: "au"),
            caption: "Tags read by result: pass, mismatch (content differs), unknown (not in the ledger), "
                + "unlocked (content matches, lock missing), authFailed (password refused), "
                + "configMismatch (content matches, protection, mirror or lock configuration differs), "
                + "identityMismatch (pages 0–2 disagree with the anticollision UID: a clone), "
                + "blank (a never-written tag in no job: not a failure).")
        body += "</section>\n<section>\n<h2>Findings that did not pass</h2>\n"
        let headers = ["UID", "row", "status", "detail", "time"]
        func line(_ finding: AuditReport.Finding) -> [String] {
            [
                finding.uid, finding.row.map(String.init) ?? "—", finding.status.rawValue, finding.detail,
                RunReportWriter.timestamp(finding.time),
            ]
        }
        let problems = report.failures
        let csv = AuditReportWriter.fileNames(report)[2]
        body += HTMLPage.headAndTail(
            "finding(s)", headers: headers, rows: problems.map(line), listed: problemsListed, csv: csv,
            order: "read order",
            numeric: [1],
            code: [0], nowrap: [0, 4])
        body += comparisons(problems)
        if !report.blanks.isEmpty {
            body += "</section>\n<section>\n<h2>Blank tags (never written, in no job; not failures)</h2>\n"
            body += HTMLPage.headAndTail(
                "blank tag(s)", headers: headers, rows: report.blanks.map(line), listed: passesListed, csv: csv,
                order: "read order", numeric: [1], code: [0], nowrap: [0, 4])
        }
        body += "</section>\n<section>\n<h2>Passed</h2>\n"
        let passes = report.findings.filter { $0.status == .pass }
        body += HTMLPage.headAndTail(
            "passing tag(s)", headers: headers, rows: passes.map(line), listed: passesListed, csv: csv,
            order: "read order",
            numeric: [1],
            code: [0], nowrap: [0, 4])
        body += "</section>\n"
        return HTMLPage.document(title: "Audit report — \(report.job)", body: body)
    }

    /// One two-column table per mismatch with expected records (the first `problemsListed`): the records the run
    /// wrote beside those the tag holds, record by record, the differing ones coloured.
    static func comparisons(_ problems: [AuditReport.Finding]) -> String {
        let compared = problems.filter { $0.recordPairs != nil }
        guard !compared.isEmpty else { return "" }
        var html = "<h3>Expected records and what the tag holds</h3>\n"
        for finding in compared.prefix(problemsListed) {
            let pairs = finding.recordPairs ?? []
            let rows = pairs.map { pair in
                [
                    "record \(pair.index)" + (pair.differs ? " (differs)" : ""), pair.expectedText,
                    pair.foundText(noMessage: finding.records == nil),
                ]
            }
            let differing = Set(pairs.filter(\.differs).map(\.index))
            html += HTMLPage.table(
                caption: "\(finding.uid), row \(finding.row.map(String.init) ?? "—"): \(finding.status.rawValue)",
                headers: ["record", "expected (what the run wrote)", "on tag"], rows: rows, code: [1, 2],
                nowrap: [0], differing: differing)
        }
        if compared.count > problemsListed {
            html += "<p class=\"note\">The first \(problemsListed) of \(compared.count) are shown; every one is "
            html += "in the audit's JSON file (<code>expected</code> beside <code>records</code>).</p>\n"
        }
        return html
    }
}
