import Foundation
import Provisioning
import Reports
import Testing

/// Two runs of one job a day apart: 3 tags in the first 30 s, then one appended row done in 10 s.
private func twoRunsADayApart() -> RunReport {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    func done(_ row: Int, at offset: Double, reader: String = "sim:ntag215") -> RunReport.AttemptLine {
        // 9 s waiting for the tag, 1 s of work, 0.5 s removal.
        RunReport.AttemptLine(
            uid: String(format: "040000000000%02d", row), row: row, reader: reader, failure: nil, detail: "",
            phase: .ledger, time: start.addingTimeInterval(offset),
            phaseMicroseconds: [.detect: 9_000_000, .write: 1_000_000, .removal: 500_000], exchanges: 1,
            airtimeMicroseconds: nil)
    }
    let day = 86_400.0
    let attempts = [done(1, at: 10), done(2, at: 20), done(3, at: 30), done(4, at: day + 10)]
    return RunReport(
        job: "t", manifestSHA256: "", templateSHA256: "", readers: ["sim:ntag215"], startedAt: start,
        finishedAt: start.addingTimeInterval(day + 10), rows: .init(total: 4, done: 4), tags: [], attempts: attempts)
}

@Test func theGapBetweenTwoRunsIsNotRunningTime() {
    let report = twoRunsADayApart()
    // First run: 0 s → 30.5 s (each tag's wait starts at its predecessor's removal); second run: 10.5 s.
    #expect(abs(report.activeSeconds() - 41) < 1e-6)
    #expect(abs(RunFigures(report).tagsPerHour - 4 / 41.0 * 3600) < 1e-6, "not 4 tags over a day (0.17/h)")
}

@Test func stationRatesUseTheLineRunningTimeToo() throws {
    var report = twoRunsADayApart()
    report.attempts = report.attempts.enumerated().map { index, attempt in
        var attempt = attempt
        attempt.reader = index % 2 == 0 ? "a/sim:ntag215" : "b/sim:ntag215"
        return attempt
    }
    report.readers = ["a/sim:ntag215", "b/sim:ntag215"]
    let stations = StationFigures.of(report)
    #expect(stations.map(\.tagsPerHour).map { ($0 * 41 / 3600).rounded() } == [2, 2])
}

@Test func attemptsWithoutPhaseTimesFallBackToTheWallTime() {
    var report = twoRunsADayApart()
    report.attempts = report.attempts.map { attempt in
        var attempt = attempt
        attempt.phaseMicroseconds = [:]
        return attempt
    }
    #expect(report.activeSeconds() == 86_410)
}
