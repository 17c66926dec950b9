import Foundation
import NDEF
import NFCTags
import Provisioning
import TestSupport
import Testing

@testable import ProvisionCLI

/// A 2-row job like `jobs/auth.json` (UID+counter mirror and MAC in the URL, protection from the NDEF
/// page, signature required with the test key trusted) and the steps a brand's back end takes: tap
/// (an authenticated `inspect --manifest --json`) and `verify-url`.
struct AuthTapJob {
    let folder: JobFolder
    let keyHex = Hex.compact(authTestKey)
    var env: [String: String] { ["BRAND_KEY": keyHex] }

    /// `extra`: more manifest members, each after a comma (`, "public": ["sku"]`).
    init(job: String = "t", extra: String = "") throws {
        folder = try JobFolder(
            job: job, rows: 2, lock: false,
            extra: #", "keys": {"brand": {"env": "BRAND_KEY"}}, "#
                + #""signature": {"mode": "require", "trust": ["\#(testTrustHex)"]}, "#
                + #""protect": {"key": "brand", "auth0": "ndef", "prot": "write", "authlim": 5}"# + extra)
        let uri = "https://example.com/a/{{serial}}?m={{uidCounterMirror}}&c={{mac:brand:uid,serial}}"
        let template = #"{"records": [{"type": "uri", "uri": "\#(uri)"}]}"#
        try Data(template.utf8).write(to: folder.url.appendingPathComponent("template.json"))
    }

    /// `provision run` of the job on `reader`; an emulated tag behind a real reader path signs with the
    /// repository's test key, so such a run passes `--allow-test-keys`.
    func run(reader: String) async throws -> ProvisionProcess.Outcome {
        let (env, folder) = (self.env, self.folder)
        let allow = reader.hasPrefix("sim") ? [] : ["--allow-test-keys"]
        return try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", reader, "--quiet", "--idle", "20"] + allow, directory: folder.url,
                environment: env)
        }
    }

    /// One tap on `reader`: the URL the tag returns (its mirror filled in by the chip) and the report.
    func tap(reader: String) async throws -> (url: String, report: [String: Any]) {
        let (env, folder) = (self.env, self.folder)
        let outcome = try await onThread {
            try ProvisionProcess.run(
                ["inspect", "--manifest", "job.json", "--reader", reader, "--json", "--timeout", "10"],
                directory: folder.url, environment: env)
        }
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(!outcome.stdout.uppercased().contains(keyHex), "key bytes in the output")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect((report["authentication"] as? [String: Any])?["status"] as? String == "accepted")
        let hex = try #require((report["ndef"] as? [String: Any])?["message_hex"] as? String, "\(outcome.stdout)")
        let message = try NDEFMessage(bytes: try #require(Hex.bytes(hex)))
        return (try #require(message.records.first?.wellKnownTypeURIPayload()?.absoluteString), report)
    }

    /// The tap `url` with its mirrored counter window replaced by `counter` (6 characters, as a forger types them);
    /// the counter is outside the MAC, so the MAC still matches.
    static func url(_ url: String, counter: String) -> String {
        guard let range = url.range(of: #"x[0-9A-F]{6}&"#, options: .regularExpression) else { return url }
        return url.replacingCharacters(in: range, with: "x\(counter)&")
    }

    /// `provision verify-url URL --manifest job.json`.
    func verify(_ url: String) async throws -> ProvisionProcess.Outcome {
        let (env, folder) = (self.env, self.folder)
        return try await onThread {
            try ProvisionProcess.run(
                ["verify-url", url, "--manifest", "job.json"], directory: folder.url, environment: env)
        }
    }

    /// The back end's checks on two taps of one tag: the first URL is valid once, then replayed; one
    /// changed character is invalid; the second tap (counter moved on) is valid.
    func expectVerdicts(first: String, second: String) async throws {
        let valid = try await verify(first)
        #expect(valid.status == 0 && valid.stdout.hasPrefix("valid"), "\(valid.stdout)\(valid.stderr)")
        let replayed = try await verify(first)
        #expect(replayed.status == 1 && replayed.stdout.hasPrefix("replayed"), "\(replayed.stdout)")
        let macDigit = try #require(first.last)
        let invalid = try await verify(String(first.dropLast()) + (macDigit == "0" ? "1" : "0"))
        #expect(invalid.status == 1 && invalid.stdout.hasPrefix("invalid"), "\(invalid.stdout)")
        #expect(second != first, "the counter mirrored by the chip moves on each tap")
        let next = try await verify(second)
        #expect(next.status == 0 && next.stdout.hasPrefix("valid"), "\(next.stdout)\(next.stderr)")
    }

    /// Raw commands through the backend, in this process: an unauthenticated WRITE of page 04h (its own
    /// bytes) is refused, then PWD_AUTH with the tag's derived password returns the derived PACK and
    /// the same WRITE is accepted.
    func expectWriteRefusedUntilAuthenticated(reader spec: String) async throws {
        let reader = try #require(try await ReaderFactory.open([spec]).first)
        guard case .tag(let detected) = try await reader.poll(timeoutMilliseconds: 2_000) else {
            Issue.record("no tag on \(spec)")
            return
        }
        let password = try TagPassword(key: SecretKey(id: "brand", bytes: authTestKey), uid: detected.uid)
        let refused = try await reader.withTransceiver { transceiver -> Bool in
            let tag = Type2Tag(transceiver: transceiver)
            _ = try tag.identify()
            let page4 = Array(try tag.read(page: 4).prefix(4))
            do {
                try tag.write(page: 4, data: page4)
                return false
            } catch let error as TransportError where error != .tagLost {
                try tag.authenticate(password: password.pwd, expectedPACK: password.pack)
                try tag.write(page: 4, data: page4)
                return true
            }
        }
        #expect(refused, "an unauthenticated WRITE to a protected page was accepted")
        _ = try await reader.release(waitingForRemovalMilliseconds: 0)
    }
}
