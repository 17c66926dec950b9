import Foundation
import Provisioning
import Reports
import Testing

private func report(airtime: Double?) -> RunReport {
    let start = SampleReports.start
    let attempts =
        (1...20).map { index in
            RunReport.AttemptLine(
                uid: "04", row: index, reader: "r", failure: nil, detail: "", phase: .ledger,
                time: start.addingTimeInterval(Double(index)),
                phaseMicroseconds: [.identify: 1_000, .write: Double(index) * 1_000, .removal: 500_000],
                exchanges: 10, airtimeMicroseconds: airtime)
        } + [
            RunReport.AttemptLine(
                uid: "05", row: 21, reader: "r", failure: .tagLost, detail: "", phase: .write, time: start,
                phaseMicroseconds: [.write: 9_000_000], exchanges: 3, airtimeMicroseconds: nil)
        ]
    return RunReport(
        job: "p", manifestSHA256: "", templateSHA256: "", readers: ["r"], startedAt: start,
        finishedAt: start.addingTimeInterval(30), rows: .init(), tags: [], attempts: attempts)
}

@Test func rowsSummariseSuccessfulAttemptsOnly() throws {
    let chart = PhaseChart(report(airtime: 30_000))
    #expect(chart.rows.map(\.label) == ["identify", "write", "removal", "tag work"])
    let write = try #require(chart.rows.first { $0.label == "write" })
    #expect(write.count == 20 && write.min == 1 && write.max == 20)  // the failed 9 s write is not counted
    #expect(write.p25 == 5 && write.p50 == 10 && write.p75 == 15 && write.p95 == 19)
    let work = try #require(chart.rows.last)
    #expect(work.min == 2 && work.max == 21)  // identify + write (removal is not tag work)
    #expect(chart.radioFloorMilliseconds == 30)
}

@Test func logAxisPlacesDecadesEvenlyAndMediansWhereTheyBelong() throws {
    let chart = PhaseChart(report(airtime: 30_000))
    #expect(chart.decades == [1, 10, 100, 1000])
    #expect(abs((chart.x(10) - chart.x(1)) - (chart.x(100) - chart.x(10))) < 1e-9)
    let svg = XMLInspector.parse(chart.svg().render())
    #expect(svg.error == nil)
    let medians = svg.elements("line", class: "median")
    #expect(medians.count == 4)
    #expect(medians.map { $0.number("data-value") } == [1, 10, 500, 11])
    for (median, row) in zip(medians, chart.rows) {
        #expect(abs(median.number("x1") - chart.x(row.p50)) < 0.01)
    }
    let floor = try #require(svg.elements("line", class: "floor").first)
    #expect(abs(floor.number("x1") - chart.x(30)) < 0.01)
    #expect(svg.elements("text").contains { $0.text.hasPrefix("radio floor 30 ms") })
    #expect(svg.elements("text").contains { $0.text == "time per tag (ms, log scale)" })
}

@Test func noFloorWithoutModelledTimingAndAnEmptyRunStillRenders() {
    let unmodelled = XMLInspector.parse(PhaseChart(report(airtime: nil)).svg().render())
    #expect(unmodelled.error == nil)
    #expect(unmodelled.elements("line", class: "floor").isEmpty)
    let empty = RunReport(
        job: "e", manifestSHA256: "", templateSHA256: "", readers: [], startedAt: nil, finishedAt: nil,
        rows: .init(), tags: [], attempts: [])
    let svg = XMLInspector.parse(PhaseChart(empty).svg().render())
    #expect(svg.error == nil)
    #expect(svg.elements("text").contains { $0.text == "no successful tags yet" })
}
