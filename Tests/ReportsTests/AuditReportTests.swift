import Foundation
import Reports
import Testing

@Test func auditCountsEveryStatus() {
    let counts = SampleReports.audit().counts
    #expect(counts == [.pass: 5, .mismatch: 2, .unknown: 1, .unlocked: 1, .authFailed: 0, .configMismatch: 0])
    let none = AuditReport(job: "j", when: SampleReports.start, readers: [], findings: []).counts
    #expect(none == [.pass: 0, .mismatch: 0, .unknown: 0, .unlocked: 0, .authFailed: 0, .configMismatch: 0])
}

@Test func auditReportRoundTripsThroughJSON() throws {
    let report = SampleReports.audit()
    let copy = try JSONDecoder().decode(AuditReport.self, from: JSONEncoder().encode(report))
    #expect(copy == report)
    #expect(AuditStatus.allCases.map(\.rawValue) == ["pass", "mismatch", "unknown", "unlocked", "authFailed", "configMismatch"])
}
