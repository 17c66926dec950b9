import Foundation
import Reports
import TestSupport
import Testing

@Test func auditWriterWritesFourFilesNamedByTime() throws {
    let folder = try Fixtures.temporaryDirectory("audit")
    defer { try? FileManager.default.removeItem(at: folder) }
    let report = SampleReports.audit()
    let urls = try AuditReportWriter.write(report, to: folder)
    // 1_800_000_000 s after the epoch is 2027-01-15 08:00:00 UTC.
    #expect(
        urls.map(\.lastPathComponent) == [
            "audit-20270115T080000Z.md", "audit-20270115T080000Z.json", "audit-20270115T080000Z.csv",
            "audit-20270115T080000Z.html",
        ])
    let first = try urls.map { try Data(contentsOf: $0) }
    try AuditReportWriter.write(report, to: folder)
    #expect(try urls.map { try Data(contentsOf: $0) } == first)
}

@Test func auditCSVQuotesAndMarkdownListsProblems() {
    let report = SampleReports.audit()
    let lines = AuditReportWriter.csv(report).split(separator: "\n")
    #expect(lines.first == "uid,row,status,detail,time")
    #expect(lines.count == 1 + report.findings.count)
    #expect(lines[3].hasPrefix("04A1B2C3D40002,3,mismatch,\"page 7 <script>alert(\"\"x\"\")</script> & more\","))
    #expect(lines[5].hasPrefix("04A1B2C3D40004,,unknown,,"))
    let markdown = AuditReportWriter.markdown(report)
    #expect(markdown.contains("| mismatch | 2 |"))
    #expect(markdown.contains("| 04A1B2C3D40004 | — | unknown |"))
    #expect(!markdown.contains("| 04A1B2C3D40000 |"))  // passes are counted, not listed
}

@Test func auditJSONHasStableKeys() throws {
    let data = Data(AuditReportWriter.json(SampleReports.audit()).utf8)
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(json["version"] as? Int == 2)
    #expect(json["job"] as? String == "museum-labels-2026")
    #expect(
        (json["counts"] as? [String: Int])
            == [
                "pass": 5, "mismatch": 2, "unknown": 1, "unlocked": 1, "auth_failed": 0, "config_mismatch": 0,
                "identity_mismatch": 0, "blank": 0, "unreadable": 0,
            ])
    let findings = try #require(json["findings"] as? [[String: Any]])
    #expect(findings.count == 9)
    #expect(findings[4]["status"] as? String == "unknown")
    #expect(findings[4]["row"] == nil)
    #expect(findings[2]["row"] as? Int == 3)
}

@Test func auditJSONListsTheRecordsReadAsRecordJSON() throws {
    let data = Data(AuditReportWriter.json(SampleReports.audit()).utf8)
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let findings = try #require(json["findings"] as? [[String: Any]])
    let uri = { (index: Int) in [["type": "uri", "uri": "https://example.com/t/\(index)?c=0000\(index)"]] }
    #expect(findings[0]["records"] as? [[String: String]] == uri(0))
    #expect(findings[7]["records"] as? [[String: String]] == uri(7))
    #expect(findings[5]["records"] as? [[String: String]] == [])  // an empty message has no records
    #expect(findings[2]["records"] == nil)  // the bytes read do not decode
    #expect(findings[4]["records"] == nil)  // nothing was read
}
