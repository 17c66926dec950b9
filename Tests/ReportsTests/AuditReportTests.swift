import Foundation
import Provisioning
import Reports
import Testing

@Test func auditCountsEveryStatus() {
    let counts = SampleReports.audit().counts
    #expect(
        counts == [
            .pass: 5, .mismatch: 2, .unknown: 1, .unlocked: 1, .authFailed: 0, .configMismatch: 0, .identityMismatch: 0,
            .unreadable: 0, .blank: 0,
        ])
    let none = AuditReport(job: "j", when: SampleReports.start, readers: [], findings: []).counts
    #expect(
        none == [
            .pass: 0, .mismatch: 0, .unknown: 0, .unlocked: 0, .authFailed: 0, .configMismatch: 0, .identityMismatch: 0,
            .unreadable: 0, .blank: 0,
        ])
}

@Test func readmeListsEveryAuditFinding() throws {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md")
    let text = try String(contentsOf: readme, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
    let list = try #require(text.range(of: "Audit findings (stable names): ").map { String(text[$0.upperBound...]) })
    let pieces = list.prefix { $0 != "." }.split(separator: "`", omittingEmptySubsequences: false)
    let listed = pieces.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    #expect(listed.map(String.init) == AuditStatus.allCases.map(\.rawValue))
}

@Test func auditReportRoundTripsThroughJSON() throws {
    let report = SampleReports.audit()
    let copy = try JSONDecoder().decode(AuditReport.self, from: JSONEncoder().encode(report))
    #expect(copy == report)
    #expect(
        AuditStatus.allCases.map(\.rawValue)
            == [
                "pass", "mismatch", "unknown", "unlocked", "authFailed", "configMismatch", "identityMismatch",
                "unreadable", "blank",
            ])
}
