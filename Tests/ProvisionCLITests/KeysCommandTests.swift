import Crypto
import Foundation
import NDEF
import TestSupport
import Testing

/// `provision keys diversify` with AN10922's vectors (`docs/reference/type4.md` §4.2), keys from the environment or
/// an owner-only file only.
@Suite struct KeysCommandTests {
    static let master = "00112233445566778899AABBCCDDEEFF"

    @Test func theAN10922VectorFromTheEnvironment() throws {
        let outcome = try ProvisionProcess.run(
            ["keys", "diversify", "--master", "env:M", "--input", "04782E21801D803042F54E585020416275"],
            environment: ["M": Self.master])
        #expect(outcome.status == 0 && outcome.stdout == "A8DD63A3B89D54B37CA802473FDA9175\n", "\(outcome.stderr)")
    }

    @Test func aShortInputFromAnOwnerOnlyFileAsJSON() throws {
        let folder = try Fixtures.temporaryDirectory("keys")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("master.key")
        try Data(Self.master.utf8).write(to: file)
        chmod(file.path, 0o600)
        let outcome = try ProvisionProcess.run(
            ["keys", "diversify", "--master", "@\(file.path)", "--input", "04782E21801D80", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["key"] as? String == "4FD3364753B8142980E8203C75AD83BE")
        let fingerprint = try KeyFingerprint.aes(try #require(Hex.bytes(Self.master)))
        #expect(
            object["input"] as? String == "04782E21801D80" && object["master_fingerprint"] as? String == fingerprint)
        chmod(file.path, 0o644)
        let open = try ProvisionProcess.run(
            ["keys", "diversify", "--master", "@\(file.path)", "--input", "04782E21801D80"])
        #expect(open.status == 77, "\(open.stderr)")
    }

    @Test(arguments: [
        (["--master", master, "--input", "04"], 64, "not a key value"),
        (["--master", "env:M", "--input", "zz"], 64, "1 to 31 bytes of hex"),
        (["--master", "env:M", "--input", String(repeating: "00", count: 32)], 64, "1 to 31 bytes"),
        (["--master", "env:SHORT", "--input", "04"], 65, "16 bytes"),
        (["--input", "04"], 64, "missing --master"),
    ])
    func badUseIsRefusedWithoutEchoingTheKey(extra: [String], status: Int32, message: String) throws {
        let outcome = try ProvisionProcess.run(
            ["keys", "diversify"] + extra, environment: ["M": Self.master, "SHORT": String(repeating: "11", count: 20)])
        #expect(outcome.status == status && outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains(Self.master))
    }

    /// A key pasted onto the command line by mistake is named by its position, never printed back.
    @Test func aStrayKeyOnTheCommandLineIsNamedByPositionNotEchoed() throws {
        let stray = try ProvisionProcess.run(
            ["keys", "diversify", Self.master, "--master", "env:M", "--input", "04"], environment: ["M": Self.master])
        #expect(stray.status == 64 && stray.stderr.contains("unexpected argument 2;"), "\(stray.stderr)")
        let misplaced = try ProvisionProcess.run(["keys", Self.master, "--master", "env:M", "--input", "04"])
        #expect(misplaced.status == 64 && misplaced.stderr.contains("unknown keys subcommand"), "\(misplaced.stderr)")
        for outcome in [stray, misplaced] {
            #expect(!outcome.stderr.contains(Self.master) && !outcome.stdout.contains(Self.master))
        }
    }
}
