import Foundation
import Provisioning
import Reports
import Testing

private func report(
    duration: Double, tags: [(Double, String)], readers: [String] = ["A", "B"]
) -> RunReport {
    let start = SampleReports.start
    let lines = tags.enumerated().map { index, tag in
        RunReport.TagLine(
            uid: "04000000000000", row: index + 1, serial: "", messageSHA256: "", locked: false,
            time: start.addingTimeInterval(tag.0), reader: tag.1)
    }
    return RunReport(
        job: "t", manifestSHA256: "", templateSHA256: "", readers: readers, startedAt: start,
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
    #expect(chart.series == ["A", "B", "C"])  // a reader seen only on tags is appended
    #expect(!chart.byStation)
    #expect(chart.counts.count == 60)
    #expect(chart.counts[0] == [2, 0, 0])
    #expect(chart.counts[1] == [0, 1, 0])
    #expect(chart.counts[59] == [1, 0, 1])
    #expect(chart.rate(bucket: 0, series: 0) == 12)  // 2 tags in 10 s = 12 per minute
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

@Test func twoStationsGiveOneSeriesEachSummingTheirReaders() throws {
    let readers = ["line-a/sim:ntag215", "line-b/pcsc:ACS ACR122U 00 00:0", "line-a/sim:ntag216"]
    let tags = [
        (5.0, readers[0]), (6, readers[2]), (7, readers[1]), (15, readers[1]), (595, readers[2]), (599, readers[1]),
    ]
    let chart = ThroughputChart(report(duration: 600, tags: tags, readers: readers))
    #expect(chart.byStation && chart.noun == "station")
    #expect(chart.series == ["line-a", "line-b"])
    #expect(chart.counts[0] == [2, 1])  // line-a's two readers add up in one series
    #expect(chart.counts[1] == [0, 1])
    #expect(chart.counts[59] == [1, 1])
    #expect(chart.counts.map { $0.reduce(0, +) }.reduce(0, +) == tags.count)
    #expect(chart.rate(bucket: 0, series: 0) == 12)
    let svg = XMLInspector.parse(chart.svg().render())
    #expect(svg.error == nil)
    let bars = svg.elements("rect", class: "bar")
    #expect(bars.count == 5 && bars.allSatisfy { $0.attributes["data-reader"] == nil })
    #expect(bars.map { $0.attributes["data-station"] ?? "" } == ["0", "1", "1", "0", "1"])
    let texts = svg.elements("text").map(\.text)
    #expect(texts.contains("line-a") && texts.contains("line-b") && !texts.contains(readers[0]))
    #expect(texts.contains { $0.hasPrefix("Throughput: tags per minute, per station") })
}

@Test func oneStationKeepsOneSeriesPerReaderAsBefore() {
    let single = ["line-a/sim:ntag215"]
    let chart = ThroughputChart(report(duration: 600, tags: [(5, single[0]), (7, single[0])], readers: single))
    #expect(!chart.byStation && chart.series == single && chart.counts[0] == [2])
    let svg = chart.svg().render()
    #expect(svg.contains("data-reader=\"0\"") && !svg.contains("data-station"))
    #expect(svg.contains("per reader"))
    // Two readers of one station, and readers that name no station (a ':' before the '/'), stay readers.
    for readers in [["line-a/sim:1", "line-a/sim:2"], ["libnfc:pn532_uart:/dev/ttyUSB0", "sim:ntag215"]] {
        let chart = ThroughputChart(report(duration: 60, tags: [(1, readers[0]), (2, readers[1])], readers: readers))
        #expect(!chart.byStation && chart.series == readers)
    }
}

@Test func readersWithoutAStationFormTheirOwnSeriesBesideAStation() {
    let readers = ["sim:ntag215", "line-b/sim:ntag215"]
    let chart = ThroughputChart(report(duration: 60, tags: [(1, readers[0]), (2, readers[1])], readers: readers))
    #expect(chart.byStation && chart.series == ["(no station)", "line-b"])
    #expect(chart.counts.reduce([0, 0]) { [$0[0] + $1[0], $0[1] + $1[1]] } == [1, 1])
}
