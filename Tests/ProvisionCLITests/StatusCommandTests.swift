import Foundation
import TestSupport
import Testing

/// `provision status` on a job's ledger, as a supervisor runs it beside the line: the rows by state, the
/// station's reader with its yield, the ETA; `--json` and `--watch` (issue 26, "Live line view"; the figures and
/// the last failure in `LineStatusTests`).
@Suite struct StatusCommandTests {
    @Test func statusShowsRowsTheStationAndItsYieldAsTextJSONAndWatched() throws {
        let folder = try JobFolder(rows: 6, lock: false)
        // Four tags for six rows: two rows stay pending.
        let reader = folder.sim("ntag215", uid: "04530000000001", options: "count=4&timing=instant")
        let run = try ProvisionProcess.run(["run", "job.json", "--quiet", "--reader", reader], directory: folder.url)
        #expect(run.status == 1, "rows remain: \(run.stderr)")
        let text = try ProvisionProcess.run(["status", "job.json"], directory: folder.url)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("job t: 4/6 done, 0 failed, 0 burned, 0 claimed, 2 pending\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  sim:ntag215  last seen ") && text.stdout.contains("yield 100.0 % · 4 done"))
        // Each done row wrote its event, none published yet: the outbox backlog.
        #expect(text.stdout.contains("\noutbox: 4 events not yet published\n"), "\(text.stdout)")
        let json = try ProvisionProcess.run(["status", "job.json", "--json"], directory: folder.url)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 2 && object["done"] as? Int == 4 && object["pending"] as? Int == 2)
        #expect(object["outbox_backlog"] as? Int == 4, "\(json.stdout)")
        let stations = try #require(object["stations"] as? [[String: Any]])
        #expect(stations.count == 1 && stations[0]["reader"] as? String == "sim:ntag215")
        #expect(stations[0]["attempts"] as? Int == 4 && (object["tags_per_hour"] as? Double ?? 0) > 0)
        let watched = try ProvisionProcess.run(
            ["status", "job.json", "--watch", "0.05", "--times", "2"], directory: folder.url)
        #expect(watched.status == 0 && watched.stdout.components(separatedBy: "job t: ").count == 3, "two views")
        let refused = try ProvisionProcess.run(["status", "job.json", "--json", "--watch", "1"], directory: folder.url)
        #expect(refused.status == 64 && refused.stderr.contains("--watch"), "\(refused.stderr)")
    }
}
