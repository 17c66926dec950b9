import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// Job binding (issue 42 item 5) through the real `provision` on the simulator: a keyed NTAG 424 DNA job started
/// under master A from a key file is refused (65) when resumed, audited or verified under master B, naming the key
/// id and both fingerprints, with the ledger unchanged; master A from the environment resumes it and completes.
@Suite struct JobKeyBindingTests {
    static let keyA = RunNTAG424Tests.master
    static let keyB = "A0A1A2A3A4A5A6A7A8A9AAABACADAEAF"

    /// The `v1:` fingerprint `provision` shows for the AES master `hex`.
    static func fingerprint(_ hex: String) throws -> String {
        SecretKey(id: "brand", bytes: try #require(Hex.bytes(hex)), kind: .aes).fingerprint
    }

    /// Points the job's `brand` key at `source` (a manifest key entry's JSON).
    static func setKeySource(_ folder: JobFolder, _ source: String) throws {
        let manifest = folder.url.appendingPathComponent("job.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let replaced = text.replacing(/"brand": \{[^}]*\}/, with: #""brand": \#(source)"#)
        try Data(replaced.utf8).write(to: manifest)
    }

    /// Every row of the ledger's tables a refused command must leave alone.
    static func snapshot(_ folder: JobFolder) throws -> [[[String]]] {
        try ["records", "attempts", "events", "key_changes", "sun_counters", "job_keys", "jobs"].map {
            try folder.query("SELECT * FROM \($0) ORDER BY 1, 2")
        }
    }

    /// A refusal names the key id and both fingerprints, exits 65 and shows no key bytes.
    static func expectRefusal(_ outcome: ProvisionProcess.Outcome, _ what: String) throws {
        #expect(outcome.status == 65, "\(what): \(outcome.stdout)\(outcome.stderr)")
        let recorded = try fingerprint(keyA)
        let presented = try fingerprint(keyB)
        #expect(
            outcome.stderr.contains("key 'brand' is \(presented), but the job recorded \(recorded)"),
            "\(what): \(outcome.stderr)")
        let text = (outcome.stdout + outcome.stderr).uppercased()
        #expect(!text.contains(keyA) && !text.contains(keyB), "\(what): key bytes in the output")
    }

    @Test func anotherMasterIsRefusedEverywhereAndTheSameMasterFromTheEnvironmentResumes() throws {
        let folder = try RunNTAG424Tests.folder(rows: 3)
        let file = try RunNTAG424Tests.keyFile(folder, "brand.key", Self.keyA)
        try Self.setKeySource(folder, #"{"file": "\#(file)"}"#)
        let partial = try ProvisionProcess.run(
            [
                "run", "job.json", "--quiet", "--idle", "1", "--reader",
                folder.sim("ntag424", uid: "04B10000000001", options: "count=2"),
            ],
            directory: folder.url)
        #expect(
            try folder.query("SELECT state, count(*) FROM records GROUP BY state") == [
                ["done", "2"], ["pending", "1"],
            ], "\(partial.stderr)")
        #expect(
            try folder.query("SELECT key_id, fingerprint FROM job_keys") == [
                ["brand", try Self.fingerprint(Self.keyA)]
            ])

        // Master B from the environment: refused before any tag or row is touched.
        try Self.setKeySource(folder, #"{"env": "BRAND_KEY"}"#)
        let before = try Self.snapshot(folder)
        let tagsBefore = try FileManager.default.contentsOfDirectory(atPath: folder.store.path).sorted()
        let resumeB = try ProvisionProcess.run(
            [
                "run", "job.json", "--quiet", "--idle", "1", "--accept-changed-manifest", "--reader",
                folder.sim("ntag424", uid: "04B10000000010", options: "count=1"),
            ],
            directory: folder.url, environment: ["BRAND_KEY": Self.keyB])
        try Self.expectRefusal(resumeB, "run")
        #expect(try Self.snapshot(folder) == before, "the ledger is unchanged")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.store.path).sorted() == tagsBefore)

        // audit and verify-url under master B: refused too, the ledger unchanged.
        let audit = try ProvisionProcess.run(
            ["audit", "job.json", "--quiet", "--reader", folder.sim("ntag424", uid: "04B10000000001")],
            directory: folder.url, environment: ["BRAND_KEY": Self.keyB])
        try Self.expectRefusal(audit, "audit")
        let inspect = try ProvisionProcess.run(
            ["inspect", "--json", "--reader", folder.sim("ntag424", uid: "04B10000000002")], directory: folder.url)
        let url = String(
            try #require(inspect.stdout.firstMatch(of: /https:\/\/e\.io\/SKU-2\?p=[0-9A-F]{32}&m=[0-9A-F]{16}/)).output)
        let verifyB = try ProvisionProcess.run(
            ["verify-url", url, "--manifest", "job.json"], directory: folder.url,
            environment: ["BRAND_KEY": Self.keyB])
        try Self.expectRefusal(verifyB, "verify-url")
        #expect(try Self.snapshot(folder) == before, "the ledger is unchanged")

        // Master A from the environment: the same fingerprint as the file's, so the job resumes and completes.
        let resumeA = try ProvisionProcess.run(
            [
                "run", "job.json", "--quiet", "--idle", "1", "--accept-changed-manifest", "--reader",
                folder.sim("ntag424", uid: "04B10000000010", options: "count=1"),
            ],
            directory: folder.url, environment: ["BRAND_KEY": Self.keyA])
        #expect(resumeA.status == 0, "\(resumeA.stdout)\(resumeA.stderr)")
        #expect(try folder.query("SELECT state, count(*) FROM records GROUP BY state") == [["done", "3"]])
        #expect(
            try folder.query("SELECT key_id, fingerprint FROM job_keys") == [
                ["brand", try Self.fingerprint(Self.keyA)]
            ])
        let verifyA = try ProvisionProcess.run(
            ["verify-url", url, "--manifest", "job.json"], directory: folder.url,
            environment: ["BRAND_KEY": Self.keyA])
        #expect(verifyA.status == 0 && verifyA.stdout.hasPrefix("valid: "), "\(verifyA.stdout)\(verifyA.stderr)")
    }

    /// The same master in a PKCS #11 token after a key file: the fingerprint is computed in the token and matches, so
    /// the job resumes; another master in the token is refused (65), naming both fingerprints.
    @Test func theSameMasterInATokenResumesAFileKeyJobAndAnotherIsRefused() async throws {
        let token = try SoftHSMToken.make()
        defer { token.remove() }
        try await token.importKeys([
            .init(label: "master-a", bytes: try #require(Hex.bytes(Self.keyA))),
            .init(label: "master-b", bytes: try #require(Hex.bytes(Self.keyB))),
        ])
        let folder = try RunNTAG424Tests.folder(rows: 2)
        let file = try RunNTAG424Tests.keyFile(folder, "brand.key", Self.keyA)
        try Self.setKeySource(folder, #"{"file": "\#(file)"}"#)
        let run = { (uid: String) in
            try ProvisionProcess.run(
                [
                    "run", "job.json", "--quiet", "--idle", "1", "--accept-changed-manifest", "--reader",
                    folder.sim("ntag424", uid: uid, options: "count=1"),
                ],
                directory: folder.url, environment: token.environment)
        }
        let partial = try run("04B20000000001")
        #expect(try folder.query("SELECT count(*) FROM records WHERE state = 'done'") == [["1"]], "\(partial.stderr)")

        try Self.setKeySource(folder, #"{"pkcs11": "\#(token.uri(object: "master-b"))"}"#)
        let before = try Self.snapshot(folder)
        try Self.expectRefusal(try run("04B20000000002"), "run, token")
        #expect(try Self.snapshot(folder) == before, "the ledger is unchanged")

        try Self.setKeySource(folder, #"{"pkcs11": "\#(token.uri(object: "master-a"))"}"#)
        let resumed = try run("04B20000000002")
        #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
        #expect(try folder.query("SELECT state, count(*) FROM records GROUP BY state") == [["done", "2"]])
        #expect(
            try folder.query("SELECT key_id, fingerprint FROM job_keys") == [
                ["brand", try Self.fingerprint(Self.keyA)]
            ])
    }
}
