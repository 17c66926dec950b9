import Foundation
import TestSupport
import Testing

/// The README's NTAG 424 DNA walk-through on a copy of `jobs/sun.json`, step by step as an engineer types it:
/// run → tap → verify-url → tap again → the first URL replayed → audit (issue 25, "Sample").
@Suite struct SUNSampleJobTests {
    static let environment = ["PROVISION_SAMPLE_SUN_MASTER_KEY": "000102030405060708090A0B0C0D0E0F"]

    @Test func runTapVerifyTapAgainAndTheFirstURLIsAReplay() throws {
        let folder = try Fixtures.sampleJobsCopy("sample-sun")
        defer { try? FileManager.default.removeItem(at: folder) }
        func provision(_ arguments: [String]) throws -> ProvisionProcess.Outcome {
            try ProvisionProcess.run(arguments, directory: folder, environment: Self.environment)
        }
        let run = try provision(["run", "jobs/sun.json", "--quiet"])
        #expect(run.status == 0 && run.stdout.contains("50/50 done"), "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("exchanges per tag    22.0"), "Read_Sig + 21: \(run.stdout)")
        func tap() throws -> String {
            let inspect = try provision([
                "inspect", "--reader", "sim:ntag424?uid=04A10000000001&store=reports/sun/tags",
            ])
            let url = try #require(inspect.stdout.firstMatch(of: /URI "([^"]+)"/), "\(inspect.stdout)")
            return String(url.1)
        }
        let first = try tap()
        let valid = try provision(["verify-url", first, "--manifest", "jobs/sun.json"])
        #expect(valid.status == 0 && valid.stdout.hasPrefix("valid:"), "\(valid.stdout)\(valid.stderr)")
        #expect(valid.stdout.contains("counter 2"), "the run's read-back was 1: \(valid.stdout)")
        let second = try tap()
        let again = try provision(["verify-url", second, "--manifest", "jobs/sun.json"])
        #expect(again.status == 0 && again.stdout.contains("counter 3"), "\(again.stdout)")
        let replay = try provision(["verify-url", first, "--manifest", "jobs/sun.json"])
        #expect(replay.status == 1 && replay.stdout.hasPrefix("replayed:"), "\(replay.stdout)\(replay.stderr)")
        let audit = try provision(["audit", "jobs/sun.json", "--count", "50", "--json"])
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
        let verdict = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any])
        #expect((verdict["counts"] as? [String: Int])?["pass"] == 50, "\(audit.stdout)")
        // The audit's reads are not published taps: the second URL is still the highest verified one.
        let replayAfterAudit = try provision(["verify-url", second, "--manifest", "jobs/sun.json"])
        #expect(replayAfterAudit.stdout.hasPrefix("replayed:"), "\(replayAfterAudit.stdout)")
    }
}
