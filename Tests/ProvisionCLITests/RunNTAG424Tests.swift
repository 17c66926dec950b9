import Crypto
import Foundation
import NDEF
import NFCTags
import Provisioning
import TagEmulator
import TestSupport
import Testing

/// `provision run` of a keyed NTAG 424 DNA job on the simulator, as a line engineer runs it: every tag gets the
/// template, its SDM settings, the CC byte and the job's keys through the ledger's key journal; a tap (`inspect`,
/// unauthenticated like a phone) shows a SUN URL that `verify-url` accepts with the tag's own diversified keys;
/// a tag that is not in its delivery state is refused before anything is written (issue 25).
@Suite struct RunNTAG424Tests {
    static let master = "000102030405060708090A0B0C0D0E0F"
    static let environment = ["BRAND_KEY": master]

    /// A keyed job of `rows` rows whose URL carries `{{sun.picc}}` and `{{sun.mac}}`.
    static func folder(rows: Int, lock: String = "permanent") throws -> JobFolder {
        let folder = try JobFolder(
            rows: rows, tag: "ntag424",
            extra: #", "keys": {"brand": {"env": "BRAND_KEY"}}, "ntag424": {"master": "brand"}"#)
        let template = #"{"records": [{"type": "uri", "uri": "https://e.io/{{sku}}?p={{sun.picc}}&m={{sun.mac}}"}]}"#
        try Data(template.utf8).write(to: folder.url.appendingPathComponent("template.json"))
        let manifest = folder.url.appendingPathComponent("job.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try Data(text.replacingOccurrences(of: #""lock": "permanent""#, with: #""lock": "\#(lock)""#).utf8)
            .write(to: manifest)
        return folder
    }

    /// A 0600 file holding `hex` (a key for `verify-url` and `keys diversify`).
    static func keyFile(_ folder: JobFolder, _ name: String, _ hex: String) throws -> String {
        let path = folder.url.appendingPathComponent(name).path
        try Data(hex.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        return path
    }

    /// The AN10922 key `provision keys diversify` prints for `input`.
    static func diversify(_ folder: JobFolder, input: String) throws -> String {
        let masterFile = try keyFile(folder, "master.key", master)
        let outcome = try ProvisionProcess.run(
            ["keys", "diversify", "--master", "@" + masterFile, "--input", input], directory: folder.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aKeyedSUNJobRunsAndATapVerifiesWithTheTagsOwnKeys() throws {
        let folder = try Self.folder(rows: 3)
        let run = try ProvisionProcess.run(
            [
                "run", "job.json", "--quiet", "--reader",
                folder.sim("ntag424", uid: "04C40000000001", options: "count=3"),
            ],
            directory: folder.url, environment: Self.environment)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(!run.stdout.contains(Self.master) && !run.stderr.contains(Self.master))
        #expect(try folder.query("SELECT state, count(*) FROM records GROUP BY state") == [["done", "3"]])
        #expect(try folder.query("SELECT DISTINCT locked, key_id FROM tags") == [["1", "brand"]])
        // Five journaled changes a tag, K1–K4 then K0, all done, to version 1, named by key id.
        let changes = try folder.query(
            "SELECT uid, group_concat(key_number, ''), group_concat(DISTINCT state), min(new_version) "
                + "FROM (SELECT * FROM key_changes ORDER BY id) GROUP BY uid ORDER BY uid")
        #expect(changes.map { Array($0.dropFirst()) } == Array(repeating: ["12340", "done", "1"], count: 3))
        #expect(try folder.query("SELECT count(*) FROM key_changes WHERE key_id NOT LIKE 'brand.K_'") == [["0"]])
        // The read-back's SUN counter (1) is the first verified one of each tag: that URL is a replay from now on.
        #expect(try folder.query("SELECT count(*), min(counter), max(counter) FROM sun_counters") == [["3", "1", "1"]])
        // Tap tag 2 as a phone: the URL's SUN verifies under K1 and the tag's K2 from `keys diversify`.
        let inspect = try ProvisionProcess.run(
            ["inspect", "--json", "--reader", folder.sim("ntag424", uid: "04C40000000002")], directory: folder.url)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let url = try #require(inspect.stdout.firstMatch(of: /https:\/\/e\.io\/SKU-2\?p=[0-9A-F]{32}&m=[0-9A-F]{16}/))
        let system = Hex.compact(Array("t".utf8))
        let k1 = try Self.keyFile(folder, "k1", try Self.diversify(folder, input: "00000000000000" + "01" + system))
        let k2 = try Self.keyFile(folder, "k2", try Self.diversify(folder, input: "04C40000000002" + "02" + system))
        let verify = try ProvisionProcess.run(
            [
                "verify-url", String(url.output), "--meta-key", "@" + k1, "--file-key", "@" + k2, "--picc", "p",
                "--mac", "m",
            ],
            directory: folder.url)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("UID 04C40000000002, counter 2"), "read-back 1, this tap 2: \(verify.stdout)")
    }

    @Test func aTagThatIsNotInItsDeliveryStateIsRefusedAndItsRowStaysPending() throws {
        let folder = try Self.folder(rows: 1, lock: "none")
        // A tag whose K0 is someone else's: personalised by another job with another master key.
        let other = try JobFolder(
            rows: 1, tag: "ntag424", lock: false,
            extra: #", "keys": {"brand": {"env": "BRAND_KEY"}}, "ntag424": {"master": "brand"}"#)
        let shared = "store=\(folder.store.path)"
        let first = try ProvisionProcess.run(
            ["run", "job.json", "--quiet", "--reader", "sim:ntag424?count=1&uid=04C40000000009&\(shared)"],
            directory: other.url, environment: ["BRAND_KEY": String(repeating: "A5", count: 16)])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try Data(contentsOf: folder.store.appendingPathComponent("04C40000000009.bin"))
        let second = try ProvisionProcess.run(
            [
                "run", "job.json", "--quiet", "--idle", "1", "--reader",
                "sim:ntag424?count=1&uid=04C40000000009&\(shared)",
            ],
            directory: folder.url, environment: Self.environment)
        #expect(second.status == 1, "the job ends with a row not done: \(second.stderr)")
        let detail = try folder.query("SELECT failure_detail FROM attempts")
        #expect(detail.count == 1 && detail[0][0].contains("refused the K0"), "\(detail)")
        #expect(try folder.query("SELECT state FROM records") == [["pending"]])
        #expect(try folder.query("SELECT failure_class FROM attempts") == [["protectFailed"]])
        #expect(try folder.query("SELECT count(*) FROM key_changes") == [["0"]])
        let after = try Data(contentsOf: folder.store.appendingPathComponent("04C40000000009.bin"))
        #expect(after.prefix(416) == before.prefix(416), "the files are untouched")
    }

    @Test func theAuditReadsTagsAsAPhoneAndTheDeepAuditProvesK0() throws {
        let folder = try Self.folder(rows: 3)
        let reader = folder.sim("ntag424", uid: "04C50000000001", options: "count=3")
        let run = try ProvisionProcess.run(
            ["run", "job.json", "--quiet", "--reader", reader], directory: folder.url, environment: Self.environment)
        #expect(run.status == 0, "\(run.stderr)")
        // Tag 2's template byte changed (after the SUN, so only the bytes compare fails); tag 3's K0 replaced in
        // the chip's secure-state trailer (only --deep can tell).
        let two = folder.store.appendingPathComponent("04C50000000002.bin")
        var image = [UInt8](try Data(contentsOf: two))
        image[34 + 7] ^= 0x01
        try Data(image).write(to: two)
        let three = folder.store.appendingPathComponent("04C50000000003.bin")
        var other = [UInt8](try Data(contentsOf: three))
        try #require(Array(other[416..<420]) == Array("N424".utf8))
        other[423] ^= 0xFF
        try Data(other).write(to: three)
        func audit(_ extra: [String]) throws -> [String: String] {
            let outcome = try ProvisionProcess.run(
                [
                    "audit", "job.json", "--json", "--count", "3", "--reader",
                    folder.sim("ntag424", uid: "04C50000000001"),
                ]
                    + extra, directory: folder.url, environment: Self.environment)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
            let findings = try #require(object["findings"] as? [[String: Any]], "\(outcome.stdout)\(outcome.stderr)")
            return Dictionary(
                uniqueKeysWithValues: findings.map { ($0["uid"] as? String ?? "", $0["status"] as? String ?? "") })
        }
        #expect(
            try audit([]) == [
                "04C50000000001": "pass", "04C50000000002": "mismatch", "04C50000000003": "pass",
            ])
        #expect(try audit(["--deep"])["04C50000000003"] == "authFailed")
    }

    /// Four instant readers run their pipelines on the cooperative pool (2 threads here) and each waits there for the
    /// key journal's synced commits: the waits must not need that pool, or the line stalls for ever.
    @Test(.timeLimit(.minutes(2))) func fourInstantReadersPersonaliseOneJobWithoutStalling() throws {
        let folder = try Self.folder(rows: 24)
        let readers = (1...4).flatMap {
            ["--reader", folder.sim("ntag424", uid: "04C\($0)0000000001", options: "timing=instant")]
        }
        let run = try ProvisionProcess.run(
            ["run", "job.json", "--quiet"] + readers, directory: folder.url, environment: Self.environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try folder.query("SELECT state, count(*) FROM records GROUP BY state") == [["done", "24"]])
        #expect(try folder.query("SELECT count(*) FROM key_changes WHERE state = 'done'") == [["120"]])
    }
}
