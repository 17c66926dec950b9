import Foundation
import Provisioning
import Reports
import Testing

@Test func auditChartHasOneBarPerStatusInFixedOrder() {
    let chart = AuditChart(SampleReports.audit())
    #expect(
        chart.counts.map(\.status) == [
            .pass, .mismatch, .unknown, .unlocked, .authFailed, .configMismatch, .identityMismatch, .unreadable,
            .blank,
        ])
    #expect(chart.counts.map(\.count) == [5, 2, 1, 1, 0, 0, 0, 0, 0])
    let svg = XMLInspector.parse(chart.svg().render())
    #expect(svg.error == nil)
    let bars = svg.elements("rect", class: "bar")
    #expect(
        bars.map { $0.attributes["data-label"] ?? "" }
            == [
                "pass", "mismatch", "unknown", "unlocked", "authFailed", "configMismatch", "identityMismatch",
                "unreadable", "blank",
            ])
    #expect(bars.map { $0.attributes["data-value"] ?? "" } == ["5", "2", "1", "1", "0", "0", "0", "0", "0"])
    let unit = bars[2].number("height")
    #expect(unit > 0)
    #expect(abs(bars[0].number("height") - 5 * unit) < 0.02 && abs(bars[1].number("height") - 2 * unit) < 0.02)
    #expect(Set(bars.map { $0.attributes["fill"] ?? "" }).count == 9)  // distinct in grayscale
    #expect(svg.elements("text").contains { $0.text == "5 (55.6 %)" })
}
