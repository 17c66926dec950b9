import Foundation
import NDEF
import Provisioning
import Reports
import Testing

/// A report with one tag overwritten with another URI (its expected records given) and one matching tag.
func overwrittenTagReport() throws -> AuditReport {
    let batch = try NDEFPayload.text("batch 7", languageCode: "en")
    let written = NDEFMessage(records: [.uri("https://example.com/p/S2"), batch])
    let found = NDEFMessage(records: [.uri("https://evil.example/x"), batch])
    let time = Date(timeIntervalSince1970: 1_800_000_000)
    return AuditReport(
        job: "j", when: time, readers: ["sim"],
        findings: [
            .init(
                uid: "04A00000000001", row: 1, status: .pass, detail: "content matches", time: time,
                message: written.bytes),
            .init(
                uid: "04A00000000002", row: 2, status: .mismatch, detail: "NDEF message SHA-256 … differs", time: time,
                message: found.bytes, expected: written.bytes),
        ])
}

@Test func aMismatchComparesTheExpectedRecordsWithTheTagsRecordByRecord() throws {
    let report = try overwrittenTagReport()
    #expect(report.findings[0].recordPairs == nil && report.findings[0].comparisonLines.isEmpty)
    let mismatch = report.findings[1]
    let pairs = try #require(mismatch.recordPairs)
    #expect(pairs.map(\.differs) == [true, false])
    #expect(
        mismatch.comparisonLines == [
            "expected records (what the run wrote) and what the tag holds:",
            "  record 0 differs",
            "    expected: nfcWellKnown (1), type \"U\", no id, URI \"https://example.com/p/S2\", 17-byte payload",
            "    on tag:   nfcWellKnown (1), type \"U\", no id, URI \"https://evil.example/x\", 15-byte payload",
            "  record 1 same",
            "    expected: nfcWellKnown (1), type \"T\", no id, text \"batch 7\" (en, utf8), 10-byte payload",
            "    on tag:   nfcWellKnown (1), type \"T\", no id, text \"batch 7\" (en, utf8), 10-byte payload",
        ])
}

@Test func aTagHoldingFewerRecordsOrNoMessageSaysSo() {
    let expected = NDEFMessage(records: [.uri("https://example.com/a"), .uri("https://example.com/b")]).bytes
    let time = Date(timeIntervalSince1970: 0)
    let shorter = AuditReport.Finding(
        uid: "04", row: 1, status: .mismatch, detail: "d", time: time,
        message: NDEFMessage(records: [.uri("https://example.com/a")]).bytes, expected: expected)
    #expect(shorter.comparisonLines.last == "    on tag:   (no record: the tag holds fewer)")
    let unread = AuditReport.Finding(uid: "04", row: 1, status: .mismatch, detail: "d", time: time, expected: expected)
    #expect(unread.comparisonLines.filter { $0 == "    on tag:   (no NDEF message read)" }.count == 2)
}

@Test func theAuditJSONAndMarkdownCarryTheExpectedRecordsBesideTheTagsAndKeepTheDetail() throws {
    let report = try overwrittenTagReport()
    let data = Data(AuditReportWriter.json(report).utf8)
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let findings = try #require(json["findings"] as? [[String: Any]])
    #expect(findings[0]["expected"] == nil, "a matching tag has no expected records")
    #expect(
        (findings[1]["expected"] as? [[String: String]])?.first == ["type": "uri", "uri": "https://example.com/p/S2"])
    #expect((findings[1]["records"] as? [[String: String]])?.first == ["type": "uri", "uri": "https://evil.example/x"])
    #expect(findings[1]["detail"] as? String == "NDEF message SHA-256 … differs")
    let markdown = AuditReportWriter.markdown(report)
    #expect(markdown.contains("## Expected records and what the tag holds"))
    #expect(
        markdown.contains(
            "  record 0 differs\n    expected: nfcWellKnown (1), type \"U\", no id, URI \"https://example."))
    let copy = try JSONDecoder().decode(AuditReport.self, from: JSONEncoder().encode(report))
    #expect(copy == report)
}
