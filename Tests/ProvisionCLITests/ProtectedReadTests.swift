import Foundation
import NDEF
import NFCTags
import Provisioning
import TestSupport
import Testing

/// A job whose tags are read-protected (`prot: readwrite` from the NDEF page), provisioned on the
/// simulator; `audit` and `inspect --manifest` must authenticate to see the message.
private struct ProtectedJob {
    let folder: JobFolder
    let keyHex = Hex.compact(authTestKey)
    let wrongHex = String(repeating: "77", count: 32)

    init(rows: Int = 2) throws {
        folder = try JobFolder(
            rows: rows, lock: false,
            extra: #", "keys": {"brand": {"env": "BRAND_KEY"}}, "#
                + #""protect": {"key": "brand", "auth0": "ndef", "prot": "readwrite", "authlim": 5}"#)
        let run = try ProvisionProcess.run(
            ["run", "job.json", "--reader", reader(count: rows), "--quiet"], directory: folder.url,
            environment: ["BRAND_KEY": keyHex])
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// The job's two tags from the store.
    func reader(count: Int = 2) -> String { folder.sim(uid: "04000000000001", options: "count=\(count)") }

    func run(_ arguments: [String], key: String?) throws -> ProvisionProcess.Outcome {
        let outcome = try ProvisionProcess.run(
            arguments, directory: folder.url, environment: key.map { ["BRAND_KEY": $0] } ?? [:])
        for text in [outcome.stdout, outcome.stderr] {
            for hex in [keyHex, wrongHex] {
                #expect(!text.uppercased().contains(hex), "key bytes in the output")
            }
            #expect(!text.contains(Data(authTestKey).base64EncodedString()))
        }
        return outcome
    }

    /// Sets `byte` of page `page` in the stored image of `uid` (as a tag tampered with elsewhere).
    func tamper(uid: String, page: Int, byte: Int, to value: UInt8) throws {
        try TagImage.tamper(folder.store.appendingPathComponent("\(uid).bin"), page: page, byte: byte, to: value)
    }

    func json(_ outcome: ProvisionProcess.Outcome) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    }

    /// Every stored tag image and hidden state (the AUTHLIM failure count lives there).
    func images() throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.store.path) {
            let data = try Data(contentsOf: folder.store.appendingPathComponent(name))
            // The hidden state is JSON whose key order is not stable: compare it decoded.
            out[name] =
                name.hasSuffix(".json")
                ? try JSONSerialization.data(
                    withJSONObject: try JSONSerialization.jsonObject(with: data), options: [.sortedKeys])
                : data
        }
        return out
    }
}

@Suite(.serialized) struct ProtectedReadTests {
    @Test func auditAuthenticatesWithTheDerivedPasswordAndRefusesAnotherKey() throws {
        let job = try ProtectedJob()
        let before = try job.images()
        let passed = try job.run(["audit", "job.json", "--reader", job.reader(), "--json", "--quiet"], key: job.keyHex)
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        let object = try job.json(passed)
        #expect((object["counts"] as? [String: Int])?["pass"] == 2)
        let findings = object["findings"] as? [[String: Any]] ?? []
        #expect(findings.allSatisfy { ($0["detail"] as? String)?.contains("password accepted") == true }, "\(findings)")

        let wrong = try job.run(
            ["audit", "job.json", "--reader", job.reader(), "--json", "--quiet"], key: job.wrongHex)
        // The job is bound to the key it was run with: another key is refused before any tag is read (the
        // tag-by-tag authFailed verdict, TagAuditorTests, remains for rows the binding does not cover).
        #expect(wrong.status == 65, "\(wrong.stdout)\(wrong.stderr)")
        #expect((wrong.stdout + wrong.stderr).contains("key 'brand' is v1:"), "\(wrong.stdout)\(wrong.stderr)")
        #expect(!(wrong.stdout + wrong.stderr).contains(job.wrongHex), "no key bytes")
        #expect(try job.images() == before, "no write, and no refused PWD_AUTH counted toward AUTHLIM")

        let csv = try FileManager.default.contentsOfDirectory(atPath: job.folder.reports.path)
            .filter { $0.hasPrefix("audit-") && $0.hasSuffix(".csv") }
        let missing = try job.run(["audit", "job.json", "--reader", job.reader(), "--quiet"], key: nil)
        #expect(missing.status == 66 && missing.stderr.contains("BRAND_KEY"), "\(missing.stderr)")
        let after = try FileManager.default.contentsOfDirectory(atPath: job.folder.reports.path)
            .filter { $0.hasPrefix("audit-") && $0.hasSuffix(".csv") }
        #expect(after == csv, "no audit files without the key")
    }

    @Test func auditWithoutProtectSeesOnlyARefusedRead() throws {
        let job = try ProtectedJob()
        // The same job without its protect section: no PWD_AUTH, so the read-protected NDEF area NAKs.
        let manifest = try String(contentsOf: job.folder.url.appendingPathComponent("job.json"), encoding: .utf8)
        let bare = manifest.replacingOccurrences(
            of: #", "protect": {"key": "brand", "auth0": "ndef", "prot": "readwrite", "authlim": 5}"#, with: "")
        #expect(bare != manifest)
        try Data(bare.utf8).write(to: job.folder.url.appendingPathComponent("bare.json"))
        let outcome = try job.run(["audit", "bare.json", "--reader", job.reader(), "--json", "--quiet"], key: nil)
        #expect(outcome.status == 1)
        let object = try job.json(outcome)
        #expect((object["counts"] as? [String: Int])?["mismatch"] == 2, "\(outcome.stdout)")
        let detail = (object["findings"] as? [[String: Any]])?.first?["detail"] as? String ?? ""
        #expect(detail.contains("NDEF unreadable") && detail.contains("NAK"), "\(detail)")
    }

    @Test func inspectShowsAReadProtectedMessageOnlyWhenAuthenticated() throws {
        let job = try ProtectedJob()
        let url = "https://example.com/p/SKU-1/S00001?u=04000000000001"
        let plain = try job.run(["inspect", "--reader", job.reader(count: 1)], key: nil)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!plain.stdout.contains("example.com") && !plain.stdout.contains("Password"))
        #expect(plain.stdout.contains("the tag refused to read the NDEF area"), "\(plain.stdout)")

        let authenticated = try job.run(
            ["inspect", "--manifest", "job.json", "--reader", job.reader(count: 1), "--dump"], key: job.keyHex)
        #expect(authenticated.status == 0, "\(authenticated.stderr)")
        #expect(authenticated.stdout.contains("Password    accepted"), "\(authenticated.stdout)")
        #expect(authenticated.stdout.contains(url))
        #expect(authenticated.stdout.contains("PROT 1") && authenticated.stdout.contains("Dump (135 pages)"))

        let viaJSON = try job.json(
            try job.run(
                ["inspect", "--manifest", "job.json", "--reader", job.reader(count: 1), "--json"], key: job.keyHex))
        let authentication = viaJSON["authentication"] as? [String: Any]
        #expect(authentication?["status"] as? String == "accepted" && authentication?["key"] as? String == "brand")

        let wrong = try job.run(
            ["inspect", "--manifest", "job.json", "--reader", job.reader(count: 1)], key: job.wrongHex)
        #expect(wrong.status == 1)
        #expect(
            wrong.stdout.contains("Password    refused") && !wrong.stdout.contains("example.com"), "\(wrong.stdout)")
    }

    @Test func auditNamesProtectionFieldsThatDifferFromTheJob() throws {
        let job = try ProtectedJob(rows: 3)
        // NTAG215: CFG0 is page 83h (AUTH0 byte 3), CFG1 page 84h (ACCESS byte 0: PROT 1, AUTHLIM 5 = 85).
        try job.tamper(uid: "04000000000001", page: 0x83, byte: 3, to: 0xFF)
        try job.tamper(uid: "04000000000002", page: 0x84, byte: 0, to: 0x83)
        let outcome = try job.run(
            ["audit", "job.json", "--reader", job.reader(count: 3), "--json", "--quiet"], key: job.keyHex)
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        let object = try job.json(outcome)
        #expect((object["counts"] as? [String: Int])?["config_mismatch"] == 2, "\(outcome.stdout)")
        #expect((object["counts"] as? [String: Int])?["pass"] == 1)
        let findings = Dictionary(
            uniqueKeysWithValues: (object["findings"] as? [[String: Any]] ?? []).map {
                ($0["uid"] as? String ?? "", ($0["status"] as? String ?? "", $0["detail"] as? String ?? ""))
            })
        #expect(findings["04000000000001"]?.0 == "configMismatch")
        #expect(findings["04000000000001"]?.1.contains("AUTH0 expected 04, found FF (protection off)") == true)
        #expect(findings["04000000000002"]?.0 == "configMismatch")
        #expect(findings["04000000000002"]?.1.contains("AUTHLIM expected 5, found 3 (ACCESS 83)") == true)
        #expect(findings["04000000000002"]?.1.contains("AUTH0") == false, "only the field that differs")
        #expect(findings["04000000000003"]?.0 == "pass", "the untouched tag")
        #expect(findings["04000000000003"]?.1.contains("configuration as set") == true)

        // The same finding in every audit file, and never the derived password.
        let reports = try FileManager.default.contentsOfDirectory(atPath: job.folder.reports.path)
            .filter { $0.hasPrefix("audit-") }
        #expect(Set(reports.map { ($0 as NSString).pathExtension }) == ["md", "json", "csv", "html"])
        let first = try #require(Hex.bytes("04000000000001"))
        let password = try TagPassword(key: SecretKey(id: "brand", bytes: authTestKey), uid: first)
        for name in reports {
            let text = try String(contentsOf: job.folder.reports.appendingPathComponent(name), encoding: .utf8)
            #expect(text.contains("configMismatch") && text.contains("AUTH0 expected 04, found FF"), "\(name)")
            #expect(!text.contains(Hex.string(password.pwd)) && !text.contains(Hex.compact(password.pwd)), "\(name)")
        }
        let table = try job.run(["audit", "job.json", "--reader", job.reader(count: 3), "--quiet"], key: job.keyHex)
        #expect(table.stdout.contains("  configMismatch     2"), "\(table.stdout)")
    }
}

/// A job like `jobs/auth.json` (UID+counter mirror, MAC, protection from the NDEF page) on the
/// simulator: audit expects the chip's mirror in the message and the mirror configuration the run set.
@Suite(.serialized) struct MirrorAuditTests {
    @Test func auditChecksTheMirrorConfigurationTheRunComputed() async throws {
        let job = try AuthTapJob()
        let reader = job.folder.sim(uid: "04000000000001", options: "count=2")
        let run = try await job.run(reader: reader)
        #expect(run.status == 0, "\(run.stderr)")
        let audit = { () throws -> [String: Any] in
            let outcome = try ProvisionProcess.run(
                ["audit", "job.json", "--reader", reader, "--json", "--quiet"], directory: job.folder.url,
                environment: job.env)
            #expect(!outcome.stdout.uppercased().contains(job.keyHex), "key bytes in the output")
            return try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        }
        let clean = try audit()
        #expect((clean["counts"] as? [String: Int])?["pass"] == 2, "\(clean)")

        // MIRROR_CONF 11 → 01 (UID only): the window still shows the UID, the counter part stays as
        // written, so the content matches and only the configuration differs.
        let image = job.folder.store.appendingPathComponent("04000000000002.bin")
        let cfg0 = 0x83 * 4
        let mirror = try [UInt8](Data(contentsOf: image))[cfg0]
        #expect(mirror >> 6 == 0b11, "the run set the UID+counter mirror")
        try TagImage.tamper(image, page: 0x83, byte: 0, to: mirror & 0x3F | 0x40)
        let tampered = try audit()
        let findings = tampered["findings"] as? [[String: Any]] ?? []
        let second = findings.first { $0["uid"] as? String == "04000000000002" }
        #expect(second?["status"] as? String == "configMismatch", "\(findings)")
        #expect((second?["detail"] as? String)?.contains("MIRROR_CONF expected 3, found 1") == true, "\(findings)")
        #expect(findings.first { $0["uid"] as? String == "04000000000001" }?["status"] as? String == "pass")
    }
}

/// Stored simulator images (`store=DIR`, `<UID>.bin`, 4 bytes per page).
enum TagImage {
    static func tamper(_ url: URL, page: Int, byte: Int, to value: UInt8) throws {
        var bytes = try [UInt8](Data(contentsOf: url))
        bytes[page * 4 + byte] = value
        try Data(bytes).write(to: url)
    }
}
