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
        #expect(!(try String(contentsOf: html, encoding: .utf8)).contains("http-equiv"))
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
