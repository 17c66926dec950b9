import Foundation
import TestSupport
import Testing

/// `provision report --watch`: the reports rewritten beside a line for a supervisor's browser (issue 26, "Live
/// line view"): each rewrite reads the ledger afresh, and report.html reloads itself only when watched.
@Suite struct ReportCommandTests {
    @Test func watchRewritesTheReportsFromTheLedgerAndTheWatchedPageReloadsItself() throws {
        let folder = try JobFolder(rows: 6, lock: false)
        let html = folder.reports.appendingPathComponent("report.html")
        func run(count: Int, first: String) throws {
            let reader = folder.sim("ntag215", uid: first, options: "count=\(count)&timing=instant")
            let run = try ProvisionProcess.run(
                ["run", "job.json", "--quiet", "--reader", reader], directory: folder.url)
            #expect(run.status == 1, "rows remain: \(run.stderr)")
        }
        try run(count: 2, first: "04530000000001")
        let watched = try ProvisionProcess.run(
            ["report", "job.json", "--watch", "0.05", "--times", "2"], directory: folder.url)
        #expect(watched.status == 0, "\(watched.stderr)")
        let lines = watched.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasSuffix("report.html: 2 done, 0 failed, 4 open") })
        // Paths relative to the working directory, as `run` prints them (issue 40 item 10).
        #expect(lines.allSatisfy { $0.contains(" rewrote reports/\(folder.job)/report.html: ") }, "\(lines)")
        let page = try String(contentsOf: html, encoding: .utf8)
        #expect(page.contains("<meta http-equiv=\"refresh\" content=\"1\"/>"))
        #expect(page.contains("04530000000002") && !page.contains("04530000000011"))

        // The line goes on; the next rewrite shows its tags.
        try run(count: 2, first: "04530000000011")
        let again = try ProvisionProcess.run(
            ["report", "job.json", "--watch", "7.5", "--times", "1"], directory: folder.url)
        #expect(
            again.status == 0 && again.stdout.hasSuffix("report.html: 4 done, 0 failed, 2 open\n"), "\(again.stdout)")
        let later = try String(contentsOf: html, encoding: .utf8)
        #expect(later.contains("<meta http-equiv=\"refresh\" content=\"8\"/>") && later.contains("04530000000012"))

        // A one-off report is a static page.
        let once = try ProvisionProcess.run(["report", "job.json"], directory: folder.url)
        #expect(once.status == 0, "\(once.stderr)")
        #expect(once.stdout.contains("\nreports: reports/\(folder.job)\n"), "\(once.stdout)")
        #expect(!once.stdout.contains(folder.url.path), "\(once.stdout)")
        #expect(!(try String(contentsOf: html, encoding: .utf8)).contains("http-equiv"))
    }

    /// Two stations on one SQLite ledger (`--station`): the report has a stations table naming both, its
    /// chart a series per station, and summary.json a `stations` array.
    @Test func twoStationsOnOneLedgerGetAStationsTableAndSeries() throws {
        let folder = try JobFolder(rows: 6, lock: false)
        for (station, first) in [("line-a", "04530000000001"), ("line-b", "04530000000011")] {
            let reader = folder.sim("ntag215", uid: first, options: "count=2&timing=instant")
            let run = try ProvisionProcess.run(
                ["run", "job.json", "--quiet", "--reader", reader, "--station", station], directory: folder.url)
            #expect(run.status == 1, "rows remain: \(run.stderr)")
        }
        let report = try ProvisionProcess.run(["report", "job.json", "--json"], directory: folder.url)
        #expect(report.status == 0, "\(report.stderr)")
        let page = try String(contentsOf: folder.reports.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(page.contains("<h2>Stations</h2>") && page.contains("2 stations on this job"))
        for station in ["line-a", "line-b"] {
            // The station's row: its name, its one reader, 2 tags done, none failed.
            let row = "<tr><td class=\"nowrap\">\(station)</td><td>\(station)/sim:ntag215</td><td class=\"num\">2</td>"
            #expect(page.contains(row + "<td class=\"num\">0</td>"), "\(station)")
        }
        #expect(page.contains("data-station=\"1\""))
        let summary = try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any]
        let stations = summary?["stations"] as? [[String: Any]]
        #expect(stations?.map { $0["station"] as? String } == ["line-a", "line-b"])
        #expect(stations?.map { $0["done"] as? Int } == [2, 2])
    }

    @Test(arguments: [
        (["--json", "--watch", "1"], "--watch"), (["--times", "2"], "--times"), (["--watch", "0"], "--watch"),
    ])
    func watchUsageErrorsExit64NamingTheOption(arguments: [String], option: String) throws {
        let folder = try JobFolder(rows: 1, lock: false)
        let result = try ProvisionProcess.run(["report", "job.json"] + arguments, directory: folder.url)
        #expect(result.status == 64 && result.stderr.contains(option), "\(result.stderr)")
    }
}
