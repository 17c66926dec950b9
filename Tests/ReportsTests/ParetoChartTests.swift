import Foundation
import Reports
import Testing

@Test func barsDescendWithStableTiesAndCumulativeShares() {
    let chart = ParetoChart(title: "f", unit: "n", counts: [("a", 2), ("b", 5), ("c", 0), ("d", 5), ("e", 1)])
    #expect(chart.bars.map(\.label) == ["b", "d", "a", "e"])
    #expect(chart.bars.map(\.count) == [5, 5, 2, 1])
    let expected = [5.0, 10, 12, 13].map { $0 / 13 * 100 }
    for (bar, share) in zip(chart.bars, expected) { #expect(abs(bar.cumulativePercent - share) < 1e-9) }
}

@Test func svgBarsAndLineLandWhereTheyShould() throws {
    let chart = ParetoChart(
        title: "Failures <all>", unit: "failed attempts", counts: [("tagLost", 8), ("nak", 2), ("timeout", 4)])
    let svg = XMLInspector.parse(chart.svg().render())
    #expect(svg.error == nil)
    let bars = svg.elements("rect", class: "bar")
    #expect(bars.map { $0.attributes["data-label"] ?? "" } == ["tagLost", "timeout", "nak"])
    let heights = bars.map { $0.number("height") }
    #expect(abs(heights[0] - 2 * heights[1]) < 0.02 && abs(heights[1] - 2 * heights[2]) < 0.02)
    #expect(zip(bars, bars.dropFirst()).allSatisfy { $0.number("x") < $1.number("x") })
    let points = svg.elements("circle", class: "point")
    #expect(points.map { $0.number("data-value") } == [57.14, 85.71, 100])
    // The line rises: higher share, smaller y; 100 % sits on the top of the plot.
    #expect(zip(points, points.dropFirst()).allSatisfy { $0.number("cy") > $1.number("cy") })
    let top = points[2].number("cy")
    let bottom = bars[0].number("y") + bars[0].number("height")
    #expect(abs((bottom - points[0].number("cy")) / (bottom - top) - 8.0 / 14) < 0.001)
    #expect(svg.elements("polyline", class: "cumulative").count == 1)
    #expect(svg.elements("title").first?.text == "Failures <all>")
    #expect(svg.elements("text").contains { $0.text == "cumulative share (%)" })
}

@Test func noFailuresDrawsNone() {
    let svg = XMLInspector.parse(ParetoChart(title: "f", unit: "n", counts: [("a", 0)]).svg().render())
    #expect(svg.error == nil)
    #expect(svg.elements("rect", class: "bar").isEmpty)
    #expect(svg.elements("text").contains { $0.text == "none" })
}

@Test func everyPercentLabelSitsOnAWhiteChipSoTheFirstReadsOnItsDarkBar() {
    let chart = ParetoChart(title: "f", unit: "n", counts: [("a", 9), ("b", 1)])
    let svg = XMLInspector.parse(chart.svg().render())
    let chips = svg.elements("rect", class: "label-chip")
    #expect(chips.count == 2)
    #expect(chips.allSatisfy { $0.attributes["fill"] == "#fff" })
    let bar = svg.elements("rect", class: "bar")[0]
    // The first chip overlaps the first (darkest) bar: the chip, not the bar, is the label's background.
    #expect(chips[0].number("x") + chips[0].number("width") > bar.number("x"))
}

@Test func aRunWithoutFailuresHasAOneLineNoteInsteadOfAnEmptyPareto() {
    let report = RunReport(
        job: "clean", manifestSHA256: "", templateSHA256: "", readers: [], startedAt: nil, finishedAt: nil,
        rows: .init(total: 1, done: 1), tags: [], attempts: [])
    let html = RunReportHTML.render(report)
    #expect(html.contains("<p class=\"note\">No failed attempts: no failure chart.</p>"))
    #expect(!html.contains("Failed attempts by class (Pareto)"))
}
