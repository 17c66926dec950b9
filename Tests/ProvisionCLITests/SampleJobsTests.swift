import Foundation
import TestSupport
import Testing

/// Every sample job in `jobs/` does what the README says, on a copy of `jobs/` and `templates/`: `validate` passes,
/// `run` on its simulated readers finishes every row, and `audit` reads the stored tags back and passes
/// (issue 40 item 10: a sample added to `jobs/` is covered without editing this test).
@Suite struct SampleJobsTests {
    /// The sample manifests, by file name.
    static let samples: [String] = {
        let folder = Fixtures.repositoryRoot.appendingPathComponent("jobs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    /// The README's sample key values (`PROVISION_SAMPLE_BRAND_KEY` beside jobs/auth.json, the SUN master key
    /// beside jobs/sun.json).
    static let environment = [
        "PROVISION_SAMPLE_BRAND_KEY": "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
        "PROVISION_SAMPLE_SUN_MASTER_KEY": "000102030405060708090A0B0C0D0E0F",
    ]

    @Test func everyTagFamilyHasASample() throws {
        #expect(Self.samples.count >= 7, "\(Self.samples)")
        for family in ["type3.json", "type5.json"] { #expect(Self.samples.contains(family)) }
    }

    @Test(arguments: samples)
    func theSampleValidatesRunsToCompletionAndAuditsClean(_ name: String) throws {
        let folder = try Fixtures.sampleJobsCopy("sample-\(name.dropLast(5))")
        defer { try? FileManager.default.removeItem(at: folder) }
        func provision(_ arguments: [String]) throws -> ProvisionProcess.Outcome {
            try ProvisionProcess.run(arguments, directory: folder, environment: Self.environment)
        }
        let manifest = "jobs/\(name)"
        let validate = try provision(["validate", manifest])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        let run = try provision(["run", manifest, "--quiet"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let counts = try #require(run.stdout.firstMatch(of: /: (\d+)\/(\d+) done, 0 failed, 0 burned/), "\(run.stdout)")
        #expect(counts.1 == counts.2 && Int(counts.1) ?? 0 > 0, "\(run.stdout)")
        let audit = try provision(["audit", manifest, "--quiet"])
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
    }
}
