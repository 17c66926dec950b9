import Foundation
import NDEF
import TestSupport
import Testing

/// A keyed job folder for TestSupport's keyed memory family (`"tag": "kmem-1"`, a `keyedmem` section, master key
/// in `BRAND_KEY`), run by `provision-testfamilies` on `kmem:` tags whose state lives in the folder.
struct KeyedTestFamilyJob {
    static let masterHex = "A1B2C3D4E5F60718293A4B5C6D7E8F90"
    static let executable = "provision-testfamilies"
    let folder: URL
    let rows: Int

    init(rows: Int) throws {
        folder = try Fixtures.temporaryDirectory("job-kmem")
        self.rows = rows
        let csv = "sku,name\n" + (1...rows).map { "SKU-\($0),Item \($0)\n" }.joined()
        try Data(csv.utf8).write(to: folder.appendingPathComponent("rows.csv"))
        let template =
            #"{"records": [{"type": "uri", "uri": "https://e.io/k/{{sku}}"#
            + #"?u={{kmem.uid}}&c={{kmem.ctr}}&m={{kmem.mac}}"}]}"#
        try Data(template.utf8).write(to: folder.appendingPathComponent("template.json"))
        let manifest =
            #"{"job": "km", "template": "template.json", "records": "rows.csv", "tag": "kmem-1", "#
            + #""lock": "permanent", "retries": 2, "onFailure": "reuse", "keys": {"brand": {"env": "BRAND_KEY"}}, "#
            + #""keyedmem": {"master": "brand"}}"#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("job.json"))
    }

    var store: URL { folder.appendingPathComponent("tags") }
    var reader: String { "kmem:\(store.path)?count=\(rows)" }
    var ledger: String { folder.appendingPathComponent("reports/km/ledger.sqlite").path }

    /// `provision-testfamilies ARGS…` (or the shipped `provision`) in the job folder with the master key set.
    func run(
        _ arguments: [String], executable: String = Self.executable, master: String = Self.masterHex
    ) async throws -> ProvisionProcess.Outcome {
        let (folder, env) = (folder, ["BRAND_KEY": master])
        return try await onThread {
            try ProvisionProcess.run(arguments, directory: folder, environment: env, executable: executable)
        }
    }

    /// The store's tag `index` (1-based), as the `kmem:` reader loads it.
    func tag(_ index: Int) -> KeyedMemoryTag { KeyedMemoryTagReader.storedTags(in: store, count: rows)[index - 1] }

    /// The URL a phone reads from tag `index` (its counter rises, and the store keeps it).
    func tap(_ index: Int) throws -> String {
        let answer = try tag(index).answer([0xD2])
        let message = try NDEFMessage(bytes: Array(answer.dropFirst(3)))
        guard case .uri(let uri) = try #require(message.records.first).content() else {
            Issue.record("not a URI record")
            return ""
        }
        return uri
    }

    /// `sqlite3` rows of the job's ledger.
    func query(_ sql: String) throws -> [[String]] { try SQLiteShell.query(ledger, sql) }
}

/// `run`, `audit` and `verify-url` of a keyed job on a keyed family that exists only in TestSupport, through the
/// test executable that registers it: the CLI reaches keyed personalisation by the family seams alone.
@Suite struct KeyedTestFamilyTests {
    /// A registered backend that says its tags are simulated is treated as `sim:` is: a documented sample key is
    /// allowed on it (test keys are refused only on a real line's readers).
    @Test func aSimulatedRegisteredBackendTakesTheSampleKeyAsSimDoes() async throws {
        let job = try KeyedTestFamilyJob(rows: 1)
        defer { try? FileManager.default.removeItem(at: job.folder) }
        let sample = "000102030405060708090A0B0C0D0E0F"  // the documented sample SUN master key
        let run = try await job.run(["run", "job.json", "--reader", job.reader], master: sample)
        #expect(run.status == 0, "\(run.status) \(run.stderr)")
        #expect(!run.stderr.contains("sample"), "\(run.stderr)")
    }

    @Test func runAuditAndVerifyURLOfAKeyedJobOnTheTestFamily() async throws {
        let job = try KeyedTestFamilyJob(rows: 5)
        defer { try? FileManager.default.removeItem(at: job.folder) }
        let run = try await job.run(["run", "job.json", "--reader", job.reader, "--quiet"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(try job.query("SELECT state, count(*) FROM records GROUP BY state") == [["done", "5"]])
        #expect(
            try job.query("SELECT key_number, state, new_version, count(*) FROM key_changes GROUP BY 1, 2, 3")
                == [["0", "done", "1", "5"], ["1", "done", "1", "5"]])
        for index in 1...5 {
            let tag = job.tag(index)
            #expect(tag.isLocked && tag.versions == [1, 1] && !tag.keys.contains(Array(repeating: 0x4B, count: 16)))
        }

        let audit = try await job.run(["audit", "job.json", "--reader", job.reader])
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
        #expect(
            audit.stdout.contains("5 tags read") && audit.stdout.contains("pass               5"), "\(audit.stdout)")

        let url = try job.tap(2)
        #expect(url.hasPrefix("https://e.io/k/SKU-2?u=0B4B4D00000002&c="), "\(url)")
        let valid = try await job.run(["verify-url", url, "--manifest", "job.json"])
        #expect(valid.status == 0 && valid.stdout.hasPrefix("valid: KMAC valid; UID 0B4B4D00000002, row 2 of job km"))
        #expect(valid.stdout.contains("key versions (the ledger's key journal): K0 01, K1 01"), "\(valid.stdout)")
        let replayed = try await job.run(["verify-url", url, "--manifest", "job.json"])
        #expect(replayed.status == 1 && replayed.stdout.hasPrefix("replayed: "), "\(replayed.stdout)")
        var flipped = Array(url.utf8)
        flipped[flipped.count - 1] = flipped.last == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        let invalid = try await job.run([
            "verify-url", String(decoding: flipped, as: UTF8.self), "--manifest", "job.json",
        ])
        #expect(
            invalid.status == 1 && invalid.stdout.hasPrefix("invalid: KMAC MAC does not verify"), "\(invalid.stdout)")
        let next = try await job.run(["verify-url", try job.tap(2), "--manifest", "job.json"])
        #expect(next.status == 0 && next.stdout.hasPrefix("valid: "), "\(next.stdout)\(next.stderr)")

        for outcome in [run, audit, valid, replayed, invalid, next] {
            #expect(!(outcome.stdout + outcome.stderr).uppercased().contains(KeyedTestFamilyJob.masterHex))
        }
    }

    @Test func auditFailsATamperedTagOfTheTestFamily() async throws {
        let job = try KeyedTestFamilyJob(rows: 2)
        defer { try? FileManager.default.removeItem(at: job.folder) }
        let run = try await job.run(["run", "job.json", "--reader", job.reader, "--quiet"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        var message = job.tag(1).message
        message[8] ^= 0x01  // in "e.io/k/", outside every dynamic window
        job.tag(1).tamper(message: message)
        let audit = try await job.run(["audit", "job.json", "--reader", job.reader])
        #expect(audit.status == 1, "\(audit.stdout)\(audit.stderr)")
        #expect(audit.stdout.contains("pass               1") && audit.stdout.contains("mismatch           1"))
    }

    /// A registered reader backend's bad spec is a usage error (64) naming the spec, before anything is written.
    @Test func aBadSpecOfARegisteredReaderBackendIsAUsageError() async throws {
        let job = try KeyedTestFamilyJob(rows: 1)
        defer { try? FileManager.default.removeItem(at: job.folder) }
        let spec = "kmem:\(job.store.path)?count=0"
        let run = try await job.run(["run", "job.json", "--reader", spec])
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("error: reader '\(spec)': count must be 1 to 65535\n"), "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "reader '").count == 2, "the spec named once: \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: job.store.path), "nothing was written")
    }

    /// The shipped `provision` links no test family: the same job is refused for its unknown section, and the
    /// reader spec for its unknown backend.
    @Test func theShippedProvisionKnowsNeitherTheTestFamilyNorItsReader() async throws {
        let job = try KeyedTestFamilyJob(rows: 1)
        defer { try? FileManager.default.removeItem(at: job.folder) }
        let run = try await job.run(["run", "job.json", "--reader", job.reader], executable: "provision")
        #expect(run.status == 65 && run.stderr.contains("keyedmem: unknown key"), "\(run.status) \(run.stderr)")
        let inspect = try await job.run(["inspect", "--reader", job.reader], executable: "provision")
        #expect(inspect.status == 64 && inspect.stderr.contains("unknown backend 'kmem'"), "\(inspect.stderr)")
        #expect(!FileManager.default.fileExists(atPath: job.store.path), "nothing was written")
    }
}
