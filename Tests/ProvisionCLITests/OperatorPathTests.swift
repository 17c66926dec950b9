import Foundation
import TestSupport
import Testing

/// A newcomer's path (issue 27 items 8 and 9): the default simulated reader follows the job's chip,
/// a wrong reel pauses the line, idle time counts only usable tags, and `audit` after a sample run ends.
@Suite(.serialized) struct OperatorPathTests {
    @Test func anNTAG213JobWithoutReadersRunsOnASimulatedNTAG213() throws {
        let folder = try JobFolder(rows: 3, tag: "ntag213")
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let outcome = try ProvisionProcess.run(["run", "job.json", "--quiet"], directory: folder.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try folder.query("SELECT DISTINCT chip FROM tags") == [["ntag213"]])
    }

    @Test func aWrongReelPausesTheReaderAfterFiveTagsAndTheJobContinuesLater() throws {
        let folder = try JobFolder(rows: 3, tag: "ntag213")
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let wrong = try ProvisionProcess.run(
            ["run", "job.json", "--reader", "sim:ntag215?uid=04000000000001", "--quiet"], directory: folder.url)
        #expect(wrong.status == 1, "\(wrong.stderr)")
        #expect(
            wrong.stderr.contains(
                "paused: 5 tags in a row failed with wrongChip; the tags are NTAG215 and this job takes NTAG213"),
            "\(wrong.stderr)")
        #expect(try folder.query("SELECT count(*), failure_class FROM attempts") == [["5", "wrongChip"]])
        #expect(try folder.query("SELECT count(*) FROM records WHERE state = 'pending'") == [["3"]])
        let right = try ProvisionProcess.run(
            ["run", "job.json", "--reader", "sim:ntag213?uid=04000000000101", "--quiet"], directory: folder.url)
        #expect(right.status == 0, "\(right.stderr)")
        let smaller = try ProvisionProcess.run(
            ["run", "job.json", "--max-wrong-chip", "-1"], directory: folder.url)
        #expect(smaller.status == 64 && smaller.stderr.contains("--max-wrong-chip"), "\(smaller.stderr)")
    }

    @Test func idleCountsOnlyUsableTags() throws {
        let folder = try JobFolder(rows: 2, tag: "ntag213")
        defer { try? FileManager.default.removeItem(at: folder.url) }
        // Never pause: wrong chips keep arriving, and --idle still ends the run.
        let outcome = try ProvisionProcess.run(
            [
                "run", "job.json", "--reader", "sim:ntag215?uid=04000000000001", "--quiet", "--max-wrong-chip", "0",
                "--idle", "0.5",
            ], directory: folder.url)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let attempts = try #require(Int(try folder.query("SELECT count(*) FROM attempts").first?.first ?? ""))
        #expect(attempts > 0 && attempts < 1_000_000)
    }

    @Test func auditAfterTheSampleRunPassesAndEnds() throws {
        let folder = try Fixtures.sampleJobsCopy("sample-batch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ProvisionProcess.run(["run", "jobs/batch.json", "--quiet"], directory: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let audit = try ProvisionProcess.run(["audit", "jobs/batch.json", "--quiet", "--json"], directory: folder)
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any])
        let counts = try #require(summary["counts"] as? [String: Any], "\(summary.keys)")
        #expect(counts["pass"] as? Int == 200, "\(counts)")
    }

    @Test func auditRefusesAStorelessSimulatorAndStopsOnARunOfUnknownTags() throws {
        let folder = try JobFolder(rows: 2)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let run = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000001"), "--quiet"], directory: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let storeless = try ProvisionProcess.run(
            ["audit", "job.json", "--reader", "sim:ntag215", "--quiet"], directory: folder.url)
        #expect(storeless.status == 64 && storeless.stderr.contains("without store=DIR"), "\(storeless.stderr)")
        // Fresh tags from another store: every one blank (never written, in no job); the audit stops after 3 in a
        // row.
        let strangers = folder.url.appendingPathComponent("strangers").path
        let unknown = try ProvisionProcess.run(
            [
                "audit", "job.json", "--reader", "sim:ntag215?uid=04000000000100&count=50&store=\(strangers)",
                "--max-unknown", "3", "--quiet", "--json",
            ], directory: folder.url)
        #expect(unknown.status == 1 && unknown.stderr.contains("3 unknown tags in a row"), "\(unknown.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(unknown.stdout.utf8)) as? [String: Any])
        #expect((summary["counts"] as? [String: Any])?["blank"] as? Int == 3, "\(summary)")
    }
}
