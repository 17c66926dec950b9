import Foundation
import Provisioning
import Reports
import TestSupport
import Testing

private func sampleReport() -> RunReport {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    func attempt(_ uid: String, _ row: Int?, _ failure: FailureClass?, _ offset: Double, write: Double)
        -> RunReport.AttemptLine
    {
        RunReport.AttemptLine(
            uid: uid, row: row, reader: "sim:ntag215", failure: failure, detail: failure == nil ? "" : "page 7, \"x\"",
            phase: failure == nil ? .ledger : .write, time: start.addingTimeInterval(offset),
            phaseMicroseconds: [.identify: 5_000, .write: write, .verify: 10_000, .ledger: 2_000],
            exchanges: 20, airtimeMicroseconds: 100_000)
    }
    let attempts = [
        attempt("04000000000001", 1, nil, 1, write: 50_000),
        attempt("04000000000002", 2, .tagLost, 2, write: 30_000),
        attempt("04000000000002", 2, nil, 3, write: 70_000),
        attempt("04000000000003", nil, .duplicateUID, 4, write: 0),
    ]
    let tags = [
        RunReport.TagLine(
            uid: "04000000000001", row: 1, serial: "=SUM(A1)", messageSHA256: "ab", locked: true,
            time: start.addingTimeInterval(1), reader: "sim:ntag215"),
        RunReport.TagLine(
            uid: "04000000000002", row: 2, serial: "S2", messageSHA256: "cd", locked: true,
            time: start.addingTimeInterval(3), reader: "sim:ntag215"),
    ]
    return RunReport(
        job: "demo", manifestSHA256: "11", templateSHA256: "22", readers: ["sim:ntag215"], startedAt: start,
        finishedAt: start.addingTimeInterval(4), rows: .init(total: 3, done: 2, pending: 1), tags: tags,
        attempts: attempts)
}

@Test func figuresCountYieldRetriesAndPhases() throws {
    let figures = RunFigures(sampleReport())
    // Over the attempts' own time (67 + 47 + 87 + 17 ms: the sample records no detection wait), not 4 s of wall time.
    #expect(abs(figures.tagsPerHour / (2.0 / 0.218 * 3600) - 1) < 1e-6)
    #expect(figures.firstPassYield == 0.5)  // row 1 first try, row 2 second try
    #expect(figures.retries == 1)
    #expect(figures.failuresByClass == [.tagLost: 1, .duplicateUID: 1])
    let write = try #require(figures.phases[.write])
    #expect(write.count == 2 && write.p50 == 50 && write.max == 70)
    #expect(figures.exchangesPerTag == 20)
    // identify 5 + write 60 (mean) + verify 10 + ledger 2 = 77 ms measured against 100 ms modelled.
    #expect(abs(figures.measuredPerTagMilliseconds - 77) < 1e-9)
    #expect(abs((figures.measuredOverAirtime ?? 0) - 0.77) < 1e-9)
}

@Test func csvFilesQuoteAndDefuseFormulas() {
    let report = sampleReport()
    let tags = RunReportWriter.tagsCSV(report).split(separator: "\n")
    #expect(tags.first == "uid,row,serial,message_sha256,locked,time,reader,chip,family")
    #expect(tags[1].hasPrefix("04000000000001,1,'=SUM(A1),ab,true,"))
    let failures = RunReportWriter.failuresCSV(report)
    #expect(failures.contains("04000000000002,2,tagLost,\"page 7, \"\"x\"\"\",write,"))
    #expect(failures.contains("04000000000003,,duplicateUID,"))
}

@Test func writerProducesEveryFileAndRegeneratesIdentically() throws {
    let folder = try Fixtures.temporaryDirectory("reports")
    try RunReportWriter.write(sampleReport(), to: folder)
    let first = try RunReportWriter.fileNames.map { try Data(contentsOf: folder.appendingPathComponent($0)) }
    try RunReportWriter.write(sampleReport(), to: folder)
    let second = try RunReportWriter.fileNames.map { try Data(contentsOf: folder.appendingPathComponent($0)) }
    #expect(first == second)
    let json = try JSONSerialization.jsonObject(with: second[1]) as? [String: Any]
    #expect(json?["job"] as? String == "demo")
    #expect((json?["failures_by_class"] as? [String: Int])?["tag_lost"] == 1)
    #expect(String(decoding: second[0], as: UTF8.self).contains("| tagLost | 1 |"))
}

@Test func aMeasuredRatioBelowOneIsExplainedInSummaryMarkdown() throws {
    let report = sampleReport()  // 77 ms measured against 100 ms modelled
    let figures = RunFigures(report)
    let note = try #require(figures.belowFloorNote)
    #expect(note.hasPrefix("Measured ÷ airtime (the modelled radio floor) is below 1 because with timing=instant"))
    #expect(RunReportWriter.markdown(report, figures).contains("| measured ÷ airtime | 0.770 |\n\n" + note + "\n"))
    // A ratio of 1 or more, or no modelled airtime, needs no explanation.
    let slower = RunFigures(SampleReports.line())
    #expect((slower.measuredOverAirtime ?? 0) >= 1)
    #expect(slower.belowFloorNote == nil)
    #expect(!RunReportWriter.markdown(SampleReports.line(), slower).contains("below 1"))
    var unmodelled = report
    unmodelled.attempts = report.attempts.map { attempt in
        var copy = attempt
        copy.airtimeMicroseconds = nil
        return copy
    }
    #expect(RunFigures(unmodelled).belowFloorNote == nil)
}

@Test func summaryJSONListsStationsOnlyOnALineOfStations() throws {
    let report = SampleReports.stations()
    let object = try JSONSerialization.jsonObject(with: Data(RunReportWriter.json(report, RunFigures(report)).utf8))
    let stations = try #require((object as? [String: Any])?["stations"] as? [[String: Any]])
    let figures = StationFigures.of(report)
    #expect(stations.map { $0["station"] as? String } == ["line-a", "line-b"])
    #expect(stations.map { $0["done"] as? Int } == figures.map(\.done))
    #expect(stations.map { $0["failed"] as? Int } == figures.map(\.failed))
    #expect(stations.map { $0["readers"] as? [String] } == figures.map(\.readers))
    let first = try #require(stations.first)
    #expect(
        Set(first.keys) == [
            "station", "readers", "attempts", "done", "failed", "yield", "tags_per_hour", "last_failure",
        ])
    let last = try #require(first["last_failure"] as? [String: String])
    #expect(Set(last.keys) == ["class", "detail", "at"] && last["class"] == figures[0].lastFailure?.failure?.rawValue)
    // A run without stations keeps its summary.json as it was: no `stations` key.
    let plain = SampleReports.line()
    #expect(!RunReportWriter.json(plain, RunFigures(plain)).contains("\"stations\""))
}
