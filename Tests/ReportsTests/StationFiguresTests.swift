import Foundation
import Provisioning
import Reports
import Testing

/// Two stations over 100 s: `line-a` (two readers) does 3 tags and fails twice (tagLost, then a NAK at 40 s);
/// `line-b` does 1 tag and fails once; every reader's name carries its station.
private func twoStationReport() -> RunReport {
    let start = SampleReports.start
    func attempt(_ reader: String, _ failure: FailureClass?, at offset: Double, detail: String = "")
        -> RunReport.AttemptLine
    {
        RunReport.AttemptLine(
            uid: "04000000000001", row: 1, reader: reader, failure: failure, detail: detail,
            phase: failure == nil ? .ledger : .write, time: start.addingTimeInterval(offset), phaseMicroseconds: [:],
            exchanges: 1, airtimeMicroseconds: nil)
    }
    let a1 = "line-a/sim:ntag215"
    let a2 = "line-a/pcsc:ACS ACR122U 00 00:0"
    let b = "line-b/sim:ntag215"
    let attempts = [
        attempt(a1, nil, at: 10), attempt(b, .timeout, at: 12, detail: "no answer"), attempt(a2, nil, at: 20),
        attempt(a1, .tagLost, at: 30, detail: "left after page 9"), attempt(b, nil, at: 35),
        attempt(a2, .nak, at: 40, detail: "NAK 5 at page 12"), attempt(a1, nil, at: 90),
    ]
    return RunReport(
        job: "t", manifestSHA256: "", templateSHA256: "", readers: [a1, b, a2], startedAt: start,
        finishedAt: start.addingTimeInterval(100), rows: .init(total: 4, done: 4), tags: [], attempts: attempts)
}

@Test func eachStationCountsItsReadersAttemptsYieldRateAndLastFailure() throws {
    let stations = StationFigures.of(twoStationReport())
    #expect(stations.map(\.label) == ["line-a", "line-b"])
    let a = try #require(stations.first)
    let b = try #require(stations.last)
    #expect(a.readers == ["line-a/sim:ntag215", "line-a/pcsc:ACS ACR122U 00 00:0"])
    #expect(a.attempts == 5 && a.done == 3 && a.failed == 2 && a.yield == 0.6)
    #expect(abs(a.tagsPerHour - 108) < 1e-9)  // 3 tags in 100 s
    #expect(a.lastFailure?.failure == .nak)
    let at = RunReportWriter.timestamp(SampleReports.start.addingTimeInterval(40))
    #expect(a.lastFailureText == "nak: NAK 5 at page 12 (\(at))")
    #expect(b.readers == ["line-b/sim:ntag215"] && b.done == 1 && b.failed == 1 && b.yield == 0.5)
    #expect(b.lastFailure?.detail == "no answer")
    // The stations' rates add up to the run's.
    #expect(abs(stations.map(\.tagsPerHour).reduce(0, +) - RunFigures(twoStationReport()).tagsPerHour) < 1e-9)
}

@Test func aStationWithoutFailuresShowsADash() throws {
    var report = twoStationReport()
    report.attempts.removeAll { $0.reader.hasPrefix("line-b/") && $0.failure != nil }
    let b = try #require(StationFigures.of(report).last)
    #expect(b.lastFailure == nil && b.lastFailureText == "—" && b.yield == 1)
}

@Test(arguments: [
    ([String](), false), (["sim:ntag215"], false), (["sim:ntag215", "pcsc:ACS ACR122U 00 00:0"], false),
    (["line-a/sim:1", "line-a/sim:2"], false), (["libnfc:pn532_uart:/dev/ttyUSB0", "sim:1"], false),
    (["line-a/sim:1", "line-b/sim:1"], true), (["sim:1", "line-b/sim:1"], true),
])
func onlyTwoOrMoreStationGroupsWithANameGiveFigures(readers: [String], shown: Bool) {
    let report = RunReport(
        job: "t", manifestSHA256: "", templateSHA256: "", readers: readers, startedAt: nil, finishedAt: nil,
        rows: .init(), tags: [], attempts: [])
    #expect(StationFigures.groups(report).isEmpty == !shown)
    #expect(StationFigures.of(report).count == (shown ? 2 : 0))
}

@Test func aStationSeenOnlyOnATagIsAppended() {
    var report = twoStationReport()
    report.tags = [
        RunReport.TagLine(
            uid: "04000000000009", row: 9, serial: "", messageSHA256: "", locked: false, time: SampleReports.start,
            reader: "line-c/sim:ntag215")
    ]
    #expect(StationFigures.groups(report) == ["line-a", "line-b", "line-c"])
    #expect(StationFigures.of(report).last?.readers == ["line-c/sim:ntag215"])
}

@Test func summaryMarkdownHasAStationsTableOnlyOnALineOfStations() {
    let report = twoStationReport()
    let text = RunReportWriter.markdown(report, RunFigures(report))
    #expect(
        text.contains("\n## Stations\n\n| station | readers | tags done | failed | yield | tags/h | last failure |"))
    #expect(text.contains("| line-b | line-b/sim:ntag215 | 1 | 1 | 50.0 % | 36 | timeout: no answer ("))
    let plain = SampleReports.line()
    #expect(!RunReportWriter.markdown(plain, RunFigures(plain)).contains("## Stations"))
}
