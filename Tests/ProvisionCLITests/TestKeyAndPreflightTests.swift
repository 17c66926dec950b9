import Foundation
import TestSupport
import Testing

/// Issue 27 items 4, 6, 7: key fingerprints at start, public test material refused on a real reader,
/// MAC inputs verify-url cannot recompute refused by pre-flight, owner-only ledger and reports.
@Suite struct TestKeyAndPreflightTests {
    /// A copy of the repository's `jobs/` and `templates/` (the sample auth job trusts the test key).
    private func sampleFolder() throws -> URL { try Fixtures.sampleJobsCopy("sample-auth") }

    private let sampleEnv = [
        "PROVISION_SAMPLE_BRAND_KEY": "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"
    ]

    @Test func theSampleAuthJobIsRefusedOnARealReaderUnlessTestKeysAreAllowed() throws {
        let folder = try sampleFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = "nfc:pn532_uart:/dev/provision-no-such-reader"
        let refused = try ProvisionProcess.run(
            ["run", "jobs/auth.json", "--reader", reader, "--quiet"], directory: folder, environment: sampleEnv)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("repository's test signing key"), "\(refused.stderr)")
        #expect(refused.stderr.contains("documented sample key") && refused.stderr.contains("--allow-test-keys"))
        #expect(
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent("reports/auth").path),
            "nothing may be created before the refusal")
        // Allowed: it gets as far as opening the (absent) reader.
        let allowed = try ProvisionProcess.run(
            ["run", "jobs/auth.json", "--reader", reader, "--quiet", "--allow-test-keys"], directory: folder,
            environment: sampleEnv)
        #expect(allowed.status == 69, "\(allowed.stderr)")
        // The simulator needs no flag: rehearsals stay as they were.
        let simulated = try ProvisionProcess.run(
            ["run", "jobs/auth.json", "--reader", "sim:ntag215?count=2", "--idle", "0.5"], directory: folder,
            environment: sampleEnv)
        #expect(simulated.status == 1, "2 tags for 200 rows: \(simulated.stderr)")
        #expect(simulated.stderr.contains("key brand: fingerprint "), "\(simulated.stderr)")
        #expect(!simulated.stderr.contains(sampleEnv.values.first ?? "?"))
    }

    /// Issue 40 item 11: jobs/sun.json's sample master key and the all-zero NTAG 424 DNA factory key are test
    /// material too: refused on a real reader by `run` and `audit` (65, before any reader opens, the key named by
    /// its manifest id, never its bytes), accepted on the simulator and with --allow-test-keys.
    @Test(arguments: [
        ("000102030405060708090A0B0C0D0E0F", "documented sample SUN master key"),
        ("00000000000000000000000000000000", "all-zero NTAG 424 DNA factory key"),
    ])
    func theSampleSUNKeyAndTheFactoryKeyAreRefusedOnARealReader(key: String, what: String) throws {
        let folder = try sampleFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["PROVISION_SAMPLE_SUN_MASTER_KEY": key]
        // A trust list of its own, so the key alone is what is refused.
        let manifest = folder.appendingPathComponent("jobs/sun.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let own = #""signature": {"mode": "record"}"#
        try Data(text.replacing(#/"signature": \{.*\}/#, with: own).utf8).write(to: manifest)
        #expect(try String(contentsOf: manifest, encoding: .utf8).contains(own))
        for reader in ["pcsc:#0", "nfc:pn532_uart:/dev/provision-no-such-reader"] {
            for command in ["run", "audit"] {
                let refused = try ProvisionProcess.run(
                    [command, "jobs/sun.json", "--reader", reader, "--quiet"], directory: folder,
                    environment: environment)
                #expect(refused.status == 65, "\(command) \(reader): \(refused.stderr)")
                #expect(refused.stderr.contains("key 'brand' is the \(what)"), "\(refused.stderr)")
                #expect(refused.stderr.contains("--allow-test-keys") && !refused.stderr.contains(key))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("reports/sun").path))
        // The simulator needs no flag (and gives audit a ledger to read).
        let simulated = try ProvisionProcess.run(
            ["run", "jobs/sun.json", "--reader", "sim:ntag424?timing=instant&count=1", "--idle", "0.5", "--quiet"],
            directory: folder, environment: environment)
        #expect(simulated.status == 1, "1 tag for 50 rows: \(simulated.stderr)")
        // Allowed: each gets as far as opening the (absent) reader, whose error it then is.
        for command in ["run", "audit"] {
            let allowed = try ProvisionProcess.run(
                [
                    command, "jobs/sun.json", "--reader", "nfc:pn532_uart:/dev/provision-no-such-reader", "--quiet",
                    "--allow-test-keys",
                ], directory: folder, environment: environment)
            #expect(allowed.status == 69, "\(command): \(allowed.stderr)")
        }
    }

    @Test func aMACOverTheTimestampIsRefusedByValidateAndRun() throws {
        let folder = try JobFolder(rows: 1, lock: false, extra: #", "keys": {"brand": {"env": "BRAND_KEY"}}"#)
        let template =
            #"{"records": [{"type": "uri", "uri": "https://e.com/?u={{uid}}&m={{mac:brand:uid,timestamp}}"}]}"#
        try Data(template.utf8).write(to: folder.url.appendingPathComponent("template.json"))
        for command in [["validate", "job.json"], ["run", "job.json", "--reader", folder.sim(uid: "04000000000001")]] {
            let outcome = try ProvisionProcess.run(
                command, directory: folder.url, environment: ["BRAND_KEY": String(repeating: "AB", count: 32)])
            #expect(outcome.status == 65, "\(command): \(outcome.stdout)\(outcome.stderr)")
            #expect((outcome.stdout + outcome.stderr).contains("template.json:1"), "\(outcome.stderr)")
            #expect((outcome.stdout + outcome.stderr).contains("'timestamp' cannot be recomputed by verify-url"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.reports.appendingPathComponent("ledger.sqlite").path))
    }

    @Test func theLedgerAndReportsAreOwnerOnly() throws {
        let folder = try JobFolder(rows: 1, lock: false)
        let outcome = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000001"), "--quiet"], directory: folder.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        func mode(_ url: URL) throws -> Int {
            try #require(
                (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?
                    .intValue)
        }
        #expect(try mode(folder.reports) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(at: folder.reports, includingPropertiesForKeys: nil)
        #expect(files.count >= 6)
        for file in files { #expect(try mode(file) == 0o600, "\(file.lastPathComponent)") }
    }
}

/// validate and run report a failed pre-flight with the same lines, prefix and count (issue 27 item 12).
@Test func validateAndRunReportPreflightProblemsAlike() throws {
    let folder = try JobFolder(rows: 4, tag: "ntag213")
    defer { try? FileManager.default.removeItem(at: folder.url) }
    let long = String(repeating: "B", count: 300)
    try Data("sku,name\nA,a\n\(long),b\nC,c\n\(long),d\n".utf8).write(to: folder.url.appendingPathComponent("rows.csv"))
    let validate = try ProvisionProcess.run(["validate", "job.json"], directory: folder.url)
    let run = try ProvisionProcess.run(
        ["run", "job.json", "--reader", folder.sim("ntag213", uid: "04000000000001")], directory: folder.url)
    #expect(validate.status == 65 && run.status == 65)
    #expect(validate.stderr == run.stderr, "validate:\n\(validate.stderr)\nrun:\n\(run.stderr)")
    #expect(run.stderr.contains("rows.csv:3:1: row 2:") && run.stderr.contains("rows.csv:5:1: row 4:"))
    #expect(run.stderr.contains("error: pre-flight found 2 problems in 4 rows; no tag was touched, no ledger created"))
}
