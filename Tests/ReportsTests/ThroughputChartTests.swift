import Foundation
import Provisioning
import Reports
import Testing

private func report(duration: Double, tags: [(Double, String)]) -> RunReport {
    let start = SampleReports.start
    let lines = tags.enumerated().map { index, tag in
        RunReport.TagLine(
            uid: "04000000000000", row: index + 1, serial: "", messageSHA256: "", locked: false,
            time: start.addingTimeInterval(tag.0), reader: tag.1)
    }
    return RunReport(
        job: "t", manifestSHA256: "", templateSHA256: "", readers: ["A", "B"], startedAt: start,
        finishedAt: start.addingTimeInterval(duration), rows: .init(), tags: lines, attempts: [])
}

@Test(arguments: [(600.0, 10), (2700.0, 30), (5400.0, 60), (28_800.0, 600), (30.0, 1), (0.0, 1)])
func bucketIsTheShortestThatFitsTheRun(duration: Double, seconds: Int) {
    let chart = ThroughputChart(report(duration: duration, tags: []))
    #expect(chart.bucketSeconds == seconds)
    #expect(chart.counts.count <= ThroughputChart.maximumBuckets)
}

@Test func tagsLandInTheirBucketAndReaderAndPausesAreFound() {
    let chart = ThroughputChart(report(duration: 600, tags: [(5, "A"), (7, "A"), (15, "B"), (595, "A"), (599, "C")]))
    #expect(chart.readers == ["A", "B", "C"])  // a reader seen only on tags is appended
    #expect(chart.counts.count == 60)
    #expect(chart.counts[0] == [2, 0, 0])
    #expect(chart.counts[1] == [0, 1, 0])
    #expect(chart.counts[59] == [1, 0, 1])
    #expect(chart.rate(bucket: 0, reader: 0) == 12)  // 2 tags in 10 s = 12 per minute
    #expect(chart.totalRate(bucket: 59) == 12)
    #expect(chart.pauses == [2...58])
}

@Test func barHeightsAreProportionalAndStacked() throws {
    let chart = ThroughputChart(report(duration: 600, tags: [(5, "A"), (7, "A"), (15, "B"), (595, "A"), (599, "B")]))
    let svg = XMLInspector.parse(chart.svg().render())
    #expect(svg.error == nil)
    let bars = svg.elements("rect", class: "bar")
    #expect(bars.count == 4)
    func bar(_ bucket: Int, _ reader: Int) -> XMLInspector.Element? {
        bars.first { $0.attributes["data-bucket"] == String(bucket) && $0.attributes["data-reader"] == String(reader) }
    }
    let double = try #require(bar(0, 0))
    let single = try #require(bar(1, 1))
    #expect(double.number("data-value") == 12)
    #expect(abs(double.number("height") - 2 * single.number("height")) < 0.02)
    // Same baseline, and the two stacked segments of bucket 59 sit on each other.
    #expect(abs((double.number("y") + double.number("height")) - (single.number("y") + single.number("height"))) < 0.02)
    let lower = try #require(bar(59, 0))
    let upper = try #require(bar(59, 1))
    #expect(abs(upper.number("y") + upper.number("height") - lower.number("y")) < 0.02)
    #expect(upper.number("x") == lower.number("x"))
    #expect(double.number("x") < single.number("x") && single.number("x") < lower.number("x"))
    // The pause is shaded over buckets 2…58 (x is rounded to 0.01 px, so allow 57 × 0.01).
    let pause = try #require(svg.elements("rect", class: "pause").first)
    #expect(abs(pause.number("width") - 57 * (single.number("x") - double.number("x"))) < 0.6)
}

@Test func axesAreLabelledWithUnits() {
    let svg = XMLInspector.parse(ThroughputChart(SampleReports.line()).svg().render())
    #expect(svg.error == nil)
    let texts = svg.elements("text").map(\.text)
    #expect(texts.contains("tags per minute"))
    #expect(texts.contains { $0.hasPrefix("time since start (min)") })
    #expect(texts.contains("no tags"))  // the sample's six-minute pause
}
