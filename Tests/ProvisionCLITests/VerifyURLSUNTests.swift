import Foundation
import TestSupport
import Testing

/// `provision verify-url` in its NTAG 424 DNA SUN explicit-key mode, as a support engineer runs it.
@Suite struct VerifyURLSUNTests {
    static let nxpURL = "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086"
    static let zero = String(repeating: "0", count: 32)

    static func verify(_ arguments: [String], env: [String: String] = ["K": zero]) throws -> ProvisionProcess.Outcome {
        try ProvisionProcess.run(["verify-url"] + arguments, environment: env)
    }

    @Test func nxpsURLIsValidWithBothKeysZero() throws {
        let outcome = try Self.verify(
            [
                Self.nxpURL, "--meta-key", "env:K", "--file-key", "env:K", "--picc", "e", "--mac", "c", "--mac-input",
                "empty",
                "--json",
            ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["verdict"] as? String == "valid" && object["uid"] as? String == "04DE5F1EACC040")
        #expect(object["counter"] as? Int == 61)
    }

    @Test func aChangedMACIsInvalidAndExits1() throws {
        let forged = Self.nxpURL.replacingOccurrences(of: "c=94EE", with: "c=94EF")
        let outcome = try Self.verify(
            [forged, "--meta-key", "env:K", "--file-key", "env:K", "--picc", "e", "--mac", "c", "--mac-input", "empty"])
        #expect(
            outcome.status == 1 && outcome.stdout.hasPrefix("invalid: the SUN does not verify"), "\(outcome.stdout)")
    }

    @Test(arguments: [
        (["--meta-key", "env:K"], "needs both --meta-key and --file-key"),
        (["--meta-key", "env:K", "--file-key", "env:K", "--manifest", "job.json"], "--manifest is for a job"),
        (["--meta-key", zero, "--file-key", "env:K"], "not a key value"),
        (["--meta-key", "env:K", "--file-key", "env:K", "--mac-input", "all"], "picc or empty"),
        (["--picc", "e"], "needs both --meta-key and --file-key"),
    ])
    func usageErrorsExit64WithoutEchoingKeys(extra: [String], message: String) throws {
        let outcome = try Self.verify([Self.nxpURL] + extra)
        #expect(outcome.status == 64 && outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains(Self.zero))
    }

    @Test func aKeyThatIsNot16BytesIsRefused() throws {
        let outcome = try Self.verify(
            [Self.nxpURL, "--meta-key", "env:K", "--file-key", "env:K"], env: ["K": String(repeating: "0", count: 40)])
        #expect(outcome.status == 65 && outcome.stderr.contains("16 bytes"), "\(outcome.stderr)")
    }
}
