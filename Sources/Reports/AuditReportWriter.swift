import Foundation
import NDEF
import Provisioning

/// Writes an audit's files into the reports folder.
///
/// The files are `audit-<when>.md`, `audit-<when>.json`, `audit-<when>.csv` (`<when>` as
/// `20261202T160226Z`, UTC) and `audit-<when>.html` (its own page, so a run's `report.html` is never overwritten).
/// Each is written whole to a temporary name and renamed.
public enum AuditReportWriter {
    /// Writes every audit file for `report` into `folder` (created if missing) and returns their URLs
    /// in the order md, json, csv, html.
    ///
    /// - Throws: Foundation file errors (the CLI maps them to exit 73/74).
    @discardableResult
    public static func write(_ report: AuditReport, to folder: URL) throws -> [URL] {
        try PrivateFiles.createFolder(folder)
        let files = fileNames(report)
        let texts = [markdown(report), json(report), csv(report), AuditReportHTML.render(report)]
        var urls: [URL] = []
        for (name, text) in zip(files, texts) {
            let url = folder.appendingPathComponent(name)
            try RunReportWriter.atomicWrite(text, to: url)
            urls.append(url)
        }
        return urls
    }

    /// The file names `write` uses for `report`: `audit-<when>.md`, `.json`, `.csv`, then `.html`.
    public static func fileNames(_ report: AuditReport) -> [String] {
        let stem = "audit-" + compactTimestamp(report.when)
        return [stem + ".md", stem + ".json", stem + ".csv", stem + ".html"]
    }

    /// `audit-<when>.md`: header, counts and the findings that did not pass.
    public static func markdown(_ report: AuditReport) -> String {
        var text = "# Audit of job \(report.job)\n\n| | |\n|---|---|\n"
        text += "| when | \(RunReportWriter.timestamp(report.when)) |\n"
        text += "| readers | \(report.readers.joined(separator: ", ")) |\n"
        text += "| tags read | \(report.findings.count) |\n\n"
        text += "## Results\n\n| status | count |\n|---|---|\n"
        let counts = report.counts
        for status in AuditStatus.allCases { text += "| \(status.rawValue) | \(counts[status] ?? 0) |\n" }
        let problems = report.failures
        if !report.blanks.isEmpty {
            text += "\nBlank tags (never written, in no job; not failures): "
            text += report.blanks.map(\.uid).joined(separator: ", ") + "\n"
        }
        text += "\n## Findings that did not pass\n\n"
        guard !problems.isEmpty else { return text + "None.\n" }
        text += "| uid | row | status | detail | time |\n|---|---|---|---|---|\n"
        for finding in problems {
            let detail = finding.detail.replacingOccurrences(of: "|", with: "\\|")
                .replacingOccurrences(of: "\n", with: " ")
            text += "| \(finding.uid) | \(finding.row.map(String.init) ?? "—") | \(finding.status.rawValue) | "
            text += "\(detail) | \(RunReportWriter.timestamp(finding.time)) |\n"
        }
        let compared = problems.filter { $0.expected != nil }
        guard !compared.isEmpty else { return text }
        text += "\n## Expected records and what the tag holds\n"
        for finding in compared {
            text += "\n\(finding.uid), row \(finding.row.map(String.init) ?? "—"):\n\n```\n"
            text += finding.comparisonLines.joined(separator: "\n") + "\n```\n"
        }
        return text
    }

    /// `audit-<when>.json` (docs/json.md, version 2), every finding with the records read
    /// (`records`: record JSON objects, whose own keys are the record JSON format's) and, for a mismatch, the
    /// records the run wrote (`expected`).
    public static func json(_ report: AuditReport) -> String {
        var counts: [String: Int] = [:]
        for (status, count) in report.counts { counts[status.rawValue] = count }
        let document = AuditJSON(
            version: JSONDocument.version, job: report.job, when: JSONDocument.timestamp(report.when),
            readers: report.readers, counts: DataKeyed(counts),
            findings: report.findings.map {
                .init(
                    uid: $0.uid, row: $0.row, status: $0.status.rawValue, detail: $0.detail,
                    time: JSONDocument.timestamp($0.time), records: $0.records, expected: $0.expected)
            })
        return (try? JSONDocument.text(document)) ?? "{}\n"
    }

    /// `audit-<when>.csv`: uid, row, status, detail, time — every finding in read order.
    public static func csv(_ report: AuditReport) -> String {
        var text = CSVField.line(["uid", "row", "status", "detail", "time"])
        for finding in report.findings {
            text += CSVField.line([
                finding.uid, finding.row.map(String.init) ?? "", finding.status.rawValue, finding.detail,
                RunReportWriter.timestamp(finding.time),
            ])
        }
        return text
    }

    /// `20261202T160226Z`: UTC, no separators, safe in file names.
    static func compactTimestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(width - digits.count, 0)) + digits
        }
        return pad(parts.year, 4) + pad(parts.month, 2) + pad(parts.day, 2) + "T" + pad(parts.hour, 2)
            + pad(parts.minute, 2) + pad(parts.second, 2) + "Z"
    }
}

/// The shape of `audit-<when>.json` (keys spelled snake_case by `JSONDocument`'s encoder).
private struct AuditJSON: Encodable {
    struct Finding: Encodable {
        var uid: String
        var row: Int?
        var status, detail, time: String
        var records: [RecordJSONObject]?
        var expected: [RecordJSONObject]?
    }
    var version: Int
    var job, when: String
    var readers: [String]
    var counts: DataKeyed<Int>
    var findings: [Finding]
}
