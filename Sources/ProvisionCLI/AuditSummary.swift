import Foundation
import NDEF
import Provisioning
import Reports

/// What `provision audit` prints at the end: a table for people, or a stable JSON object (`--json`).
struct AuditSummary: Sendable {
    let report: AuditReport
    /// Presentations of UIDs already audited (each UID is audited once).
    let repeats: Int
    /// Whether Ctrl-C ended the audit.
    let interrupted: Bool
    /// The audit files written, as displayed paths (md, json, csv, html).
    let files: [String]

    /// The human-readable table (not a stable format; use `--json` for scripts).
    func text() -> String {
        let counts = report.counts
        var lines = [
            "audit of job \(report.job): \(report.findings.count) tags read"
                + (repeats > 0
                    ? ", \(repeats) repeated \(repeats == 1 ? "presentation" : "presentations") audited once" : "")
                + (interrupted ? " (interrupted)" : "")
        ]
        lines.append("  " + pad("status", 15) + "count")
        for status in AuditStatus.allCases {
            lines.append("  " + pad(status.rawValue, 15) + String(format: "%5d", counts[status] ?? 0))
        }
        let problems = report.failures
        if !problems.isEmpty {
            lines.append("findings that did not pass:")
            lines.append("  " + pad("uid", 16) + pad("row", 6) + pad("status", 15) + "detail")
            for finding in problems {
                lines.append(
                    "  " + pad(finding.uid, 16) + pad(finding.row.map(String.init) ?? "-", 6)
                        + pad(finding.status.rawValue, 15) + finding.detail)
                lines += finding.comparisonLines.map { "    " + $0 }
            }
        }
        let blanks = report.blanks
        if !blanks.isEmpty {
            lines.append(
                "blank tags (never written, in no job; not failures): "
                    + blanks.prefix(20).map(\.uid).joined(separator: ", ") + (blanks.count > 20 ? ", …" : ""))
        }
        if let first = files.first {
            lines.append("audit files: \(first) (and .json, .csv, .html)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `--json` object (docs/json.md, version 2), on one line.
    func jsonText() -> String {
        var counts: [String: Int] = [:]
        for (status, count) in report.counts { counts[status.rawValue] = count }
        let document = Document(
            version: JSONDocument.version, job: report.job, when: JSONDocument.timestamp(report.when),
            readers: report.readers, tags: report.findings.count, repeats: repeats, interrupted: interrupted,
            counts: DataKeyed(counts),
            passed: report.passed, files: files,
            findings: report.findings.map {
                Finding(
                    uid: $0.uid, row: $0.row, status: $0.status.rawValue, detail: $0.detail,
                    time: JSONDocument.timestamp($0.time), records: $0.records, expected: $0.expected)
            })
        return (try? JSONDocument.text(document, pretty: false)) ?? "{\"version\":\(JSONDocument.version)}\n"
    }

    private struct Document: Encodable {
        var version: Int
        var job: String
        var when: String
        var readers: [String]
        var tags: Int
        var repeats: Int
        var interrupted: Bool
        var counts: DataKeyed<Int>
        var passed: Bool
        var files: [String]
        var findings: [Finding]
    }

    private struct Finding: Encodable {
        var uid: String
        var row: Int?
        var status: String
        var detail: String
        var time: String
        /// The records read from the tag as record JSON objects; absent when no message was read.
        var records: [RecordJSONObject]?
        /// For a mismatch, the records the run wrote, as `records`; absent otherwise.
        var expected: [RecordJSONObject]?
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
