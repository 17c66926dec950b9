import Foundation
import Provisioning
import Reports
import TestSupport
import Testing

/// A report whose every text field is hostile.
private func hostileReport() -> RunReport {
    var report = SampleReports.line()
    report.job = "job <b>&</b>"
    report.readers.append("reader \"<img src=x onerror=alert(1)>\"")
    report.attempts.append(
        .init(
            uid: "04DEADBEEF0001", row: 3, reader: "r<1>", failure: .nak, detail: "<script>alert('csv')</script>",
            phase: .write, time: SampleReports.start, phaseMicroseconds: [:], exchanges: 1, airtimeMicroseconds: nil))
    report.tags[0].serial = "</td><script>x</script>"
    return report
}

@Test func htmlIsSelfContainedWellFormedAndEscaped() {
    let html = RunReportHTML.render(hostileReport())
    #expect(!html.lowercased().contains("<script"))
    #expect(!html.contains("http"))
    #expect(!html.contains("<img"))
    #expect(!html.contains("@import") && !html.contains("<link"))
    // Every url(…) points inside the page (pattern fills).
    #expect(html.components(separatedBy: "url(").dropFirst().allSatisfy { $0.hasPrefix("#") })
    #expect(html.contains("&lt;script&gt;alert(&#39;csv&#39;)&lt;/script&gt;"))
    #expect(html.contains("job &lt;b&gt;&amp;&lt;/b&gt;"))
    // The page is also well-formed XML, and the hostile texts read back exactly.
    let page = XMLInspector.parse(html)
    #expect(page.error == nil)
    let cells = page.elements("td").map(\.text)
    #expect(cells.contains("<script>alert('csv')</script>"))
    #expect(cells.contains("</td><script>x</script>"))
    #expect(page.elements("svg").count == 3)
    #expect(page.elements("style").count == 1)
}

@Test func htmlIsDeterministic() throws {
    let report = SampleReports.line()
    let first = RunReportHTML.render(report)
    #expect(first == RunReportHTML.render(report))
    // A report that went through JSON (as `provision report` would rebuild it) renders the same bytes.
    let copy = try JSONDecoder().decode(RunReport.self, from: JSONEncoder().encode(report))
    #expect(RunReportHTML.render(copy) == first)
}

@Test func headerTablesAndChartsCarryTheFigures() throws {
    let report = SampleReports.line()
    let figures = RunFigures(report)
    let page = XMLInspector.parse(RunReportHTML.render(report))
    #expect(page.error == nil)
    let facts = Dictionary(uniqueKeysWithValues: zip(page.elements("dt").map(\.text), page.elements("dd").map(\.text)))
    #expect(facts["manifest sha256"] == report.manifestSHA256)
    #expect(facts["template sha256"] == report.templateSHA256)
    #expect(facts["readers"] == report.readers.joined(separator: ", "))
    let kpis = page.elements("span", class: "value").map(\.text)
    #expect(kpis.contains("420 / 450"))
    #expect(kpis.contains(String(Int(figures.tagsPerHour.rounded()))))
    #expect(kpis.contains { $0.hasSuffix(" %") })
    let captions = page.elements("caption").map(\.text)
    #expect(
        captions == [
            "All \(report.failures.count) failed attempt(s), in time order", "First 10 of 420 tags done",
            "Last 10 tags done",
        ])
    // One failures row per failed attempt; ten rows in each tag table.
    let rows = page.elements("tr")
    #expect(rows.count == 3 + report.failures.count + 20)
    let firstUID = try #require(report.tags.first?.uid)
    let lastUID = try #require(report.tags.last?.uid)
    let cells = page.elements("td").map(\.text)
    #expect(cells.contains(firstUID) && cells.contains(lastUID))
    let paretoBars = page.elements("rect", class: "bar").filter { $0.attributes["data-label"] != nil }
    #expect(paretoBars.map { Int($0.attributes["data-value"] ?? "") ?? 0 }.reduce(0, +) == report.failures.count)
    #expect(page.elements("line", class: "floor").count == 1)
}

@Test func fewTagsGiveOneTableAndAnEmptyRunRenders() {
    var report = SampleReports.line()
    report.tags = Array(report.tags.prefix(3))
    let page = XMLInspector.parse(RunReportHTML.render(report))
    #expect(page.elements("caption").map(\.text).last == "All 3 tag(s) done, in time order")
    let empty = RunReport(
        job: "empty", manifestSHA256: "", templateSHA256: "", readers: [], startedAt: nil, finishedAt: nil,
        rows: .init(), tags: [], attempts: [])
    let emptyPage = XMLInspector.parse(RunReportHTML.render(empty))
    #expect(emptyPage.error == nil)
    #expect(emptyPage.elements("td", class: "empty").count == 2)
}

@Test func writerAddsReportHTML() throws {
    let folder = try Fixtures.temporaryDirectory("reports-html")
    defer { try? FileManager.default.removeItem(at: folder) }
    let report = SampleReports.line()
    try RunReportWriter.write(report, to: folder)
    #expect(RunReportWriter.fileNames.last == "report.html")
    let written = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
    #expect(written == RunReportHTML.render(report))
}

/// Thousands of failed attempts (a wrong reel left running) list the first and last 100 and link the
/// CSV that holds them all, so the page stays small.
@Test func manyFailuresAreCappedAndLinkTheCSV() throws {
    var report = SampleReports.line()
    let template = try #require(report.failures.first)
    report.attempts = Array(repeating: template, count: 5_000)
    let html = RunReportHTML.render(report)
    let page = XMLInspector.parse(html)
    #expect(page.error == nil)
    let captions = page.elements("caption").map(\.text)
    #expect(captions.prefix(2) == ["First 100 of 5000 failed attempt(s)", "Last 100 failed attempt(s)"])
    #expect(page.elements("a").contains { $0.attributes["href"] == "failures.csv" })
    #expect(html.utf8.count < 1_000_000, "\(html.utf8.count) bytes")
    #expect(RunReportWriter.failuresCSV(report).split(separator: "\n").count == 5_001)
}

@Test func thePhaseCaptionExplainsARatioBelowOne() throws {
    var report = SampleReports.line()
    // Three times the modelled airtime: the measured work falls below the radio floor.
    report.attempts = report.attempts.map { attempt in
        var copy = attempt
        copy.airtimeMicroseconds = attempt.airtimeMicroseconds.map { $0 * 3 }
        return copy
    }
    let note = try #require(RunFigures(report).belowFloorNote)
    let captions = XMLInspector.parse(RunReportHTML.render(report)).elements("figcaption").map(\.text)
    #expect(captions.contains { $0.hasPrefix("Per-phase time per tag;") && $0.hasSuffix("(dashed line). " + note) })
    let plain = XMLInspector.parse(RunReportHTML.render(SampleReports.line())).elements("figcaption").map(\.text)
    #expect(!plain.contains { $0.contains("below 1") })
}

@Test func aLineOfStationsGetsAStationsTableAndStationSeries() throws {
    let report = SampleReports.stations()
    let page = XMLInspector.parse(RunReportHTML.render(report))
    #expect(page.error == nil)
    #expect(page.elements("h2").map(\.text).contains("Stations"))
    #expect(page.elements("caption").map(\.text).first == "2 stations on this job")
    let rows = page.elements("tr").map { $0.text }
    let stations = StationFigures.of(report)
    #expect(stations.map(\.done).reduce(0, +) == report.rows.done)
    for station in stations {
        let cells = [
            station.label, station.readers.joined(separator: ", "), String(station.done), String(station.failed),
        ]
        #expect(rows.contains { $0.hasPrefix(cells.joined()) }, "\(station.label)")
    }
    #expect(page.elements("rect", class: "bar").contains { $0.attributes["data-station"] == "1" })
    #expect(page.elements("figcaption").map(\.text).contains { $0.contains("stacked by station") })
}

@Test func aOneStationRunHasNoStationsTable() {
    var report = SampleReports.stations()
    report.readers = report.readers.map { $0.replacingOccurrences(of: "line-b/", with: "line-a/") }
    report.attempts = report.attempts.map { attempt in
        var copy = attempt
        copy.reader = attempt.reader.replacingOccurrences(of: "line-b/", with: "line-a/")
        return copy
    }
    report.tags = report.tags.map { tag in
        var copy = tag
        copy.reader = tag.reader.replacingOccurrences(of: "line-b/", with: "line-a/")
        return copy
    }
    let html = RunReportHTML.render(report)
    #expect(!html.contains("<h2>Stations</h2>") && !html.contains("data-station"))
    #expect(html.contains("stacked by reader"))
    #expect(!RunReportHTML.render(SampleReports.line()).contains("<h2>Stations</h2>"))
}
