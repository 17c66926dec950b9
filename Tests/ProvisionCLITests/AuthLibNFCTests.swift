import Foundation
import NDEF
import NFCTags
import Provisioning
@testable import ProvisionCLI
import TestSupport
import Testing

/// Product authentication through a real backend: stock libnfc (`pn532_uart`) to a
/// `provision emulate pn532` child on a pty. The UID/counter mirror is applied by the emulated chip
/// on every READ, so the tap URLs below are what a phone would read.
@Suite(.serialized) struct AuthLibNFCTests {
    let keyHex = Hex.compact(authTestKey)
    var env: [String: String] { ["BRAND_KEY": keyHex] }

    /// A 2-row job like `jobs/auth.json`: mirror + MAC, protection from the NDEF page, signature required.
    func authJob() throws -> JobFolder {
        let folder = try JobFolder(
            rows: 2, lock: false,
            extra: #", "keys": {"brand": {"env": "BRAND_KEY"}}, "#
                + #""signature": {"mode": "require", "trust": ["\#(testTrustHex)"]}, "#
                + #""protect": {"key": "brand", "auth0": "ndef", "prot": "write", "authlim": 5}"#)
        let uri = "https://example.com/a/{{serial}}?m={{uidCounterMirror}}&c={{mac:brand:uid,serial}}"
        let template = #"{"records": [{"type": "uri", "uri": "\#(uri)"}]}"#
        try Data(template.utf8).write(to: folder.url.appendingPathComponent("template.json"))
        return folder
    }

    /// One tap through libnfc: `inspect --manifest --json` (authenticated), returning the URL and the report.
    func tap(_ folder: JobFolder, slave: String) async throws -> (url: String, report: [String: Any]) {
        let env = self.env
        let outcome = try await onThread {
            try ProvisionProcess.run(
                ["inspect", "--manifest", "job.json", "--reader", "nfc:pn532_uart:" + slave, "--json", "--timeout", "10"],
                directory: folder.url, environment: env)
        }
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(!outcome.stdout.uppercased().contains(keyHex), "key bytes in the output")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let hex = try #require((report["ndef"] as? [String: Any])?["messageHex"] as? String, "\(outcome.stdout)")
        let message = try NDEFMessage(bytes: try #require(Hex.bytes(hex)))
        return (try #require(message.records.first?.wellKnownTypeURIPayload()?.absoluteString), report)
    }

    func verify(_ url: String, _ folder: JobFolder) async throws -> ProvisionProcess.Outcome {
        let env = self.env
        return try await onThread {
            try ProvisionProcess.run(["verify-url", url, "--manifest", "job.json"], directory: folder.url, environment: env)
        }
    }

    @Test func protectedMirroredMACdTagsThroughLibnfcVerifyAndRefuseUnauthenticatedWrites() async throws {
        let folder = try authJob()
        let spec = "sim:ntag215?count=2&uid=04C10000000001&store=\(folder.store.path)"
        let (line, slave) = try await ChildProvision.pn532(["--tags", spec, "--line"])
        try #require(slave.hasPrefix("/dev/pts/"), "\(line.stderr)")
        let env = self.env
        let run = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", "nfc:pn532_uart:" + slave, "--quiet", "--idle", "20"],
                directory: folder.url, environment: env)
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try await line.stop() == 0)
        #expect(try folder.query("SELECT signature_status, key_id FROM tags") == [["valid", "brand"], ["valid", "brand"]])

        // The first tag again, staying in the field: taps through libnfc.
        let one = "sim:ntag215?count=1&uid=04C10000000001&store=\(folder.store.path)"
        let (field, again) = try await ChildProvision.pn532(["--tags", one])
        try #require(again.hasPrefix("/dev/pts/"), "\(field.stderr)")
        let (first, report) = try await tap(folder, slave: again)
        #expect((report["authentication"] as? [String: Any])?["status"] as? String == "accepted")
        #expect((report["protection"] as? [String: Any])?["auth0"] as? Int == 4)
        #expect(first.hasPrefix("https://example.com/a/S00001?m=04C10000000001x"), "\(first)")
        let valid = try await verify(first, folder)
        #expect(valid.status == 0 && valid.stdout.hasPrefix("valid"), "\(valid.stdout)\(valid.stderr)")
        let replayed = try await verify(first, folder)
        #expect(replayed.status == 1 && replayed.stdout.hasPrefix("replayed"), "\(replayed.stdout)")
        let macDigit = try #require(first.last)
        let changed = String(first.dropLast()) + (macDigit == "0" ? "1" : "0")
        let invalid = try await verify(changed, folder)
        #expect(invalid.status == 1 && invalid.stdout.hasPrefix("invalid"), "\(invalid.stdout)")
        let (second, _) = try await tap(folder, slave: again)
        #expect(second != first, "the counter mirrored by the chip moves on each tap")
        print("libnfc taps: \(first) then \(second)")
        let next = try await verify(second, folder)
        #expect(next.status == 0 && next.stdout.hasPrefix("valid"), "\(next.stdout)\(next.stderr)")

        // Raw commands through libnfc: an unauthenticated WRITE to the NDEF page is refused, PWD_AUTH
        // with the derived password returns the derived PACK.
        let password = TagPassword(key: SecretKey(id: "brand", bytes: authTestKey), uid: [0x04, 0xC1, 0, 0, 0, 0, 0x01])
        do {
            let reader = try #require(try await ReaderFactory.open(["nfc:pn532_uart:" + again]).first)
            guard case .tag = try await reader.poll(timeoutMilliseconds: 2_000) else {
                Issue.record("no tag through libnfc")
                return
            }
            let refused = try await reader.withTransceiver { transceiver -> Bool in
                let tag = Type2Tag(transceiver: transceiver)
                _ = try tag.identify()
                let page4 = Array(try tag.read(page: 4).prefix(4))
                do {
                    try tag.write(page: 4, data: page4)
                    return false
                } catch let error as TransportError where error != .tagLost {
                    try tag.authenticate(password: password.pwd, expectedPACK: password.pack)
                    try tag.write(page: 4, data: page4)  // the same bytes, now authenticated
                    return true
                }
            }
            #expect(refused, "an unauthenticated WRITE to a protected page was accepted")
            _ = try await reader.release(waitingForRemovalMilliseconds: 0)
        }
        #expect(try await field.stop() == 0)
    }
}
