import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// A 32-byte test key: the bytes that must never appear in any output.
let authTestKey: [UInt8] = (0..<32).map { UInt8(truncatingIfNeeded: 0xA0 + $0 * 7) }

@Suite(.serialized) struct AuthRunTests {
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

    @Test func missingKeyEnvironmentVariableStopsTheRun() throws {
        let folder = try JobFolder(rows: 1, extra: #", "keys": {"brand": {"env": "PROVISION_TEST_ABSENT_KEY"}}"#)
        let outcome = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000001"), "--quiet"], directory: folder.url)
        #expect(outcome.status == 66, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("PROVISION_TEST_ABSENT_KEY"))
    }
}
