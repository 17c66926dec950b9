import Foundation
import NDEF
import NFCTags
import TagEmulator
import TestSupport
import Testing

/// A 32-byte test key: the bytes that must never appear in any output.
let authTestKey: [UInt8] = (0..<32).map { UInt8(truncatingIfNeeded: 0xA0 + $0 * 7) }

/// The repository test key's public point, as a manifest's `signature.trust` lists it.
let testTrustHex = "0485E811A76DEECCB04A858C9B936334203F7B880DEACD9C71633B87FCAE3CAAD7"
/// Another secp128r1 private key: tags signed with it come from an untrusted source.
let untrustedSigner = "0F1E2D3C4B5A69788796A5B4C3D2E1F0"

@Suite(.serialized) struct AuthRunTests {
    @Test func requiredSignatureFromATrustedKeyIsRecordedPerTag() throws {
        let folder = try JobFolder(
            rows: 3, lock: false, extra: #", "signature": {"mode": "require", "trust": ["\#(testTrustHex)"]}"#)
        let outcome = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000001"), "--quiet"], directory: folder.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let tags = try folder.query("SELECT signature_status FROM tags")
        #expect(tags.count == 3 && tags.allSatisfy { $0 == ["valid"] })
    }

    @Test(arguments: [true, false])
    func untrustedSignatureIsQuarantinedAndNeverWritten(trustTestKey: Bool) throws {
        // Signed by an unknown key, or by the test key when only NXP's key is trusted.
        let trust = trustTestKey ? #", "trust": ["\#(testTrustHex)"]"# : ""
        let folder = try JobFolder(rows: 2, lock: false, extra: #", "signature": {"mode": "require"\#(trust)}"#)
        let signer = trustTestKey ? "signer=\(untrustedSigner)&" : ""
        let spec = folder.sim(uid: "04000000000001", options: signer + "count=2")
        let outcome = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(try folder.query("SELECT count(*) FROM tags") == [["0"]])
        #expect(try folder.query("SELECT count(*) FROM records WHERE state = 'pending'") == [["2"]])
        let failed = try folder.query("SELECT failure_class FROM attempts WHERE outcome = 'failed'")
        #expect(failed.count == 2 && failed.allSatisfy { $0 == ["signatureInvalid"] })
        let failures = try String(contentsOf: folder.reports.appendingPathComponent("failures.csv"), encoding: .utf8)
        #expect(failures.components(separatedBy: "signatureInvalid").count == 3, "\(failures)")
        for uid in ["04000000000001", "04000000000002"] {
            let image = [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("\(uid).bin")))
            #expect(!String(decoding: image, as: UTF8.self).contains("example.com"), "tag \(uid) was written")
        }
    }

    @Test func recordedSignatureStoresInvalidButWrites() throws {
        let folder = try JobFolder(rows: 1, lock: false, extra: #", "signature": "record""#)
        let spec = folder.sim(uid: "04000000000001", options: "signer=\(untrustedSigner)")
        let outcome = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try folder.query("SELECT signature_status FROM tags") == [["invalid"]])
    }

    @Test func groupReadableKeyFileIsRefusedWithExit77AndNoKeyBytes() throws {
        let folder = try JobFolder(rows: 2, extra: #", "keys": {"brand": {"file": "brand.key"}}"#)
        let keyFile = folder.url.appendingPathComponent("brand.key")
        try Data(Hex.compact(authTestKey).utf8).write(to: keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)
        let outcome = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000001"), "--quiet"], directory: folder.url)
        #expect(outcome.status == 77, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("brand") && outcome.stderr.contains("chmod 600"))
        #expect(!outcome.stderr.lowercased().contains(Hex.compact(authTestKey).lowercased()))
        #expect(!FileManager.default.fileExists(atPath: folder.ledger.path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
        let again = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000001"), "--quiet"], directory: folder.url)
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test func macdURLsVerifyAndNoKeyBytesLeakIntoLedgerOutputOrReports() throws {
        let folder = try JobFolder(
            rows: 3, lock: false, extra: #", "keys": {"brand": {"env": "BRAND_KEY"}}, "signature": "record""#)
        let template = """
            {"records": [{"type": "uri",
              "uri": "https://example.com/t?u={{uid}}&s={{serial}}&m={{mac:brand:uid,serial}}"}]}
            """
        try Data(template.utf8).write(to: folder.url.appendingPathComponent("template.json"))
        let keyHex = Hex.compact(authTestKey)
        let outcome = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000001"), "--json"], directory: folder.url,
            environment: ["BRAND_KEY": keyHex.lowercased()])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for record in try folder.query("SELECT uid FROM tags") {
            let image = [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("\(record[0]).bin")))
            let message = try NDEFMessage(bytes: try NDEFTLV.extractMessage(fromArea: Array(image[16..<512])))
            let url = try #require(message.records.first?.wellKnownTypeURIPayload()?.absoluteString)
            let items = try #require(URLComponents(string: url)?.queryItems)
            let values = Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
            #expect(values["u"] == record[0])
            var encoded = Array("provision/url-mac/v1".utf8) + [0]
            for text in [folder.job, record[0], values["s"] ?? ""] {
                encoded += [0, 0, 0, UInt8(text.utf8.count)] + Array(text.utf8)
            }
            let mac = Hex.compact(Array(Crypto256.hmac(key: authTestKey, encoded).prefix(8)))
            #expect(values["m"] == mac, "\(url)")
            // The back end's view: valid as read back, invalid after one changed character.
            let env = ["BRAND_KEY": keyHex]
            let valid = try ProvisionProcess.run(
                ["verify-url", url, "--manifest", "job.json"], directory: folder.url, environment: env)
            #expect(valid.status == 0 && valid.stdout.hasPrefix("valid"), "\(valid.stdout)\(valid.stderr)")
            let lastMAC = try #require(mac.last)
            let tampered = String(url.dropLast()) + (lastMAC == "0" ? "1" : "0")
            let invalid = try ProvisionProcess.run(
                ["verify-url", tampered, "--manifest", "job.json"], directory: folder.url, environment: env)
            #expect(invalid.status == 1 && invalid.stdout.hasPrefix("invalid"), "\(invalid.stdout)")
            let otherSerial = url.replacingOccurrences(of: "&s=\(values["s"] ?? "")&", with: "&s=S99999&")
            let moved = try ProvisionProcess.run(
                ["verify-url", otherSerial, "--manifest", "job.json"], directory: folder.url, environment: env)
            #expect(moved.status == 1 && moved.stdout.hasPrefix("invalid"), "\(moved.stdout)")
            let viaKey = try ProvisionProcess.run(
                ["verify-url", url, "--manifest", "job.json", "--key", "brand=env:BACKEND_KEY"], directory: folder.url,
                environment: ["BACKEND_KEY": keyHex])
            #expect(viaKey.status == 0, "\(viaKey.stdout)\(viaKey.stderr)")
        }
        let stranger = "https://example.com/t?u=04FFFFFFFFFFFF&s=S00001&m=0011223344556677"
        let unknown = try ProvisionProcess.run(
            ["verify-url", stranger, "--manifest", "job.json", "--operator"], directory: folder.url,
            environment: ["BRAND_KEY": keyHex])
        #expect(unknown.status == 1 && unknown.stdout.hasPrefix("unknown"), "\(unknown.stdout)\(unknown.stderr)")
        // v1: HMAC-SHA256 of the fixed text under the brand key (an HMAC key), first 8 bytes.
        let fingerprint =
            "v1:"
            + Hex.compact(Array(Crypto256.hmac(key: authTestKey, Array("provision key fingerprint v1".utf8)).prefix(8)))
        let keyColumns = try folder.query("SELECT DISTINCT key_id, key_fingerprint FROM tags")
        #expect(keyColumns == [["brand", fingerprint]])
        // The key never appears: not in the ledger file, the run's output, or any report.
        let needles =
            [keyHex.uppercased(), keyHex.lowercased(), Data(authTestKey).base64EncodedString()]
            .map { Array($0.utf8) } + [authTestKey]
        var files = [folder.ledger]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.reports.path) {
            files.append(folder.reports.appendingPathComponent(name))
        }
        var haystacks = try files.map { [UInt8](try Data(contentsOf: $0)) }
        haystacks += [Array(outcome.stdout.utf8), Array(outcome.stderr.utf8)]
        #expect(files.count >= 6)
        for haystack in haystacks {
            for needle in needles {
                #expect(
                    !haystack.indices.contains { start in
                        start + needle.count <= haystack.count
                            && Array(haystack[start..<start + needle.count]) == needle
                    })
            }
        }
    }

    @Test func protectedJobRunsEndToEndAndRecordsTheKey() throws {
        let folder = try JobFolder(
            rows: 2, lock: false,
            extra: #", "keys": {"brand": {"env": "BRAND_KEY"}}, "#
                + #""protect": {"key": "brand", "auth0": "ndef", "authlim": 3}"#
        )
        let outcome = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000001"), "--quiet"], directory: folder.url,
            environment: ["BRAND_KEY": Hex.compact(authTestKey)])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for record in try folder.query("SELECT uid FROM tags") {
            let image = [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("\(record[0]).bin")))
            // NTAG215: CFG0 page 83h (AUTH0 = 04), CFG1 84h (AUTHLIM 3), CC unchanged (E1 10 3E 00).
            #expect(image[0x83 * 4 + 3] == 0x04 && image[0x84 * 4] == 0x03)
            #expect(Array(image[12..<16]) == [0xE1, 0x10, 0x3E, 0x00])
            let uid = try #require(Hex.bytes(record[0]))
            let pwd = Array(Crypto256.hmac(key: authTestKey, uid).prefix(4))
            #expect(Array(image[0x85 * 4..<0x85 * 4 + 4]) == pwd)
        }
    }

    @Test func authSampleJobProgramsVerifiableProtectedTags() throws {
        let folder = try Fixtures.sampleJobsCopy("auth-sample")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The documented sample-only test value (docs/authentication.md); never use it for real tags.
        let env = ["PROVISION_SAMPLE_BRAND_KEY": "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"]
        let store = folder.appendingPathComponent("tags").path
        let run = try ProvisionProcess.run(
            ["run", "jobs/auth.json", "--quiet", "--reader", "sim:ntag215?uid=04000000000001&count=3&store=\(store)"],
            directory: folder, environment: env)
        #expect(run.status == 1, "three tags for more rows: \(run.stderr)")
        let image = [UInt8](try Data(contentsOf: folder.appendingPathComponent("tags/04000000000002.bin")))
        #expect(image[0x83 * 4 + 3] == 0x04, "AUTH0 from the first NDEF page")
        // A phone's tap: the emulator's READ path applies the UID/counter mirror.
        let tag = try NTAGEmulator(image: image, chip: .ntag215)
        func tap() throws -> String {
            tag.fieldOff()
            _ = tag.activate()
            let reader = Type2Tag(transceiver: EmulatorTransceiver(tag: tag))
            let message = try NDEFMessage(bytes: try reader.readNDEF())
            return try #require(message.records.first?.wellKnownTypeURIPayload()?.absoluteString)
        }
        let first = try tap()
        #expect(first.hasPrefix("https://example.com/a/A26-000002?m=04000000000002x0000"), "\(first)")
        let valid = try ProvisionProcess.run(
            ["verify-url", first, "--manifest", "jobs/auth.json"], directory: folder, environment: env)
        #expect(valid.status == 0 && valid.stdout.hasPrefix("valid"), "\(valid.stdout)\(valid.stderr)")
        let replayed = try ProvisionProcess.run(
            ["verify-url", first, "--manifest", "jobs/auth.json"], directory: folder, environment: env)
        #expect(replayed.status == 1 && replayed.stdout.hasPrefix("replayed"), "\(replayed.stdout)")
        let second = try tap()
        #expect(second != first)
        let next = try ProvisionProcess.run(
            ["verify-url", second, "--manifest", "jobs/auth.json"], directory: folder, environment: env)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        let changed = second.replacingOccurrences(of: "?m=04000000000002", with: "?m=04000000000003")
        let invalid = try ProvisionProcess.run(
            ["verify-url", changed, "--manifest", "jobs/auth.json"], directory: folder, environment: env)
        #expect(invalid.status == 1, "\(invalid.stdout)")
    }

    @Test func protectedTagsAreReprovisionedWithTheDerivedPassword() throws {
        let extra = #", "keys": {"brand": {"env": "BRAND_KEY"}}, "protect": {"key": "brand", "auth0": "ndef"}"#
        let first = try JobFolder(job: "first", rows: 2, lock: false, extra: extra)
        let second = try JobFolder(job: "second", rows: 2, lock: false, extra: extra)
        try Data(#"{"records": [{"type": "text", "text": "Rewritten {{name}}", "lang": "en"}]}"#.utf8)
            .write(to: second.url.appendingPathComponent("template.json"))
        let env = ["BRAND_KEY": Hex.compact(authTestKey)]
        let spec = first.sim(uid: "04000000000001", options: "count=2")
        let one = try ProvisionProcess.run(
            ["run", "job.json", "--reader", spec, "--quiet"], directory: first.url, environment: env)
        #expect(one.status == 0, "\(one.stderr)")
        let two = try ProvisionProcess.run(
            ["run", "job.json", "--reader", spec, "--quiet"], directory: second.url, environment: env)
        #expect(two.status == 0, "\(two.stderr)")
        let image = [UInt8](try Data(contentsOf: first.store.appendingPathComponent("04000000000001.bin")))
        #expect(String(decoding: image, as: UTF8.self).contains("Rewritten Item 1"))
        // Without the right key the protected tags cannot be rewritten.
        let third = try JobFolder(job: "third", rows: 2, lock: false, extra: extra)
        let wrong = try ProvisionProcess.run(
            ["run", "job.json", "--reader", spec, "--quiet"], directory: third.url,
            environment: ["BRAND_KEY": String(repeating: "77", count: 32)])
        #expect(wrong.status == 1, "\(wrong.stderr)")
        let classes = try third.query("SELECT DISTINCT failure_class FROM attempts WHERE outcome = 'failed'")
        #expect(classes == [["protectFailed"]], "\(classes)")
    }

    @Test func missingKeyEnvironmentVariableStopsTheRun() throws {
        let folder = try JobFolder(rows: 1, extra: #", "keys": {"brand": {"env": "PROVISION_TEST_ABSENT_KEY"}}"#)
        let outcome = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000001"), "--quiet"], directory: folder.url)
        #expect(outcome.status == 66, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("PROVISION_TEST_ABSENT_KEY"))
    }
}
