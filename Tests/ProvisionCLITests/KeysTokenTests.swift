import Crypto
import Foundation
import NDEF
import TestSupport
import Testing

/// `provision keys list|generate|import` and `keys diversify --master pkcs11:…`, run as users run them against a
/// private SoftHSM2 token per test: fingerprints agree with the file key's, nothing is overwritten, and no key byte
/// or PIN reaches any output.
@Suite struct KeysTokenTests {
    /// AN10922's master and long vector (docs/reference/type4.md §4.2).
    static let master = "00112233445566778899AABBCCDDEEFF"
    static let input = "04782E21801D803042F54E585020416275"
    static let derived = "A8DD63A3B89D54B37CA802473FDA9175"

    /// A token of its own, removed when the test ends.
    final class Token: Sendable {
        let hsm: SoftHSMToken
        init() throws { hsm = try SoftHSMToken.make() }
        deinit { hsm.remove() }

        /// The URI of the token alone (no object), with its module and PIN file.
        var uri: String { "pkcs11:token=\(hsm.label)?module-path=\(hsm.modulePath)&pin-source=file:\(hsm.pinFile)" }
        /// The token URI without a PIN source (the PIN comes from an option).
        var uriWithoutPIN: String { "pkcs11:token=\(hsm.label)?module-path=\(hsm.modulePath)" }

        /// `provision ARGUMENTS` with this token's SoftHSM2 configuration, off the cooperative pool.
        func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProvisionProcess.Outcome {
            let merged = hsm.environment.merging(environment) { $1 }
            return try await onThread { try ProvisionProcess.run(arguments, environment: merged) }
        }

        /// `keys list --json`, checked against docs/schemas/keys-list.schema.json: the keys by label.
        func list(_ extra: [String] = []) async throws -> [String: [String: Any]] {
            let object = try JSONContract.check(
                try await run(["keys", "list", "--token", uri, "--json"] + extra), schema: "keys-list")
            let keys = try #require(object["keys"] as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: keys.map { ($0["label"] as? String ?? "", $0) })
        }
    }

    /// A 0600 file holding `hex`, in a folder of its own.
    static func keyFile(_ hex: String) throws -> URL {
        let file = try Fixtures.temporaryDirectory("token-keys").appendingPathComponent("master.key")
        try Data(hex.utf8).write(to: file)
        chmod(file.path, 0o600)
        return file
    }

    /// The fingerprint `generate` or `import` printed (`…: fingerprint v1:…`).
    static func printedFingerprint(_ outcome: ProvisionProcess.Outcome) -> String? {
        outcome.stdout.components(separatedBy: "fingerprint ").last?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `v1:` and 16 upper-case hex digits.
    static func isVersion1(_ text: String) -> Bool {
        text.hasPrefix("v1:") && text.count == 19 && text.dropFirst(3).allSatisfy { $0.isHexDigit && !$0.isLowercase }
    }

    /// No secret, in upper or lower case, in either stream.
    static func expectNothingOf(
        _ secrets: [String], in outcome: ProvisionProcess.Outcome, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for secret in secrets {
            for text in [secret.uppercased(), secret.lowercased()] {
                #expect(
                    !outcome.stdout.contains(text) && !outcome.stderr.contains(text), "\(secret) leaked",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test func aGeneratedMasterIsListedSensitiveNotExtractableWithItsCheckValueAndFingerprint() async throws {
        let token = try Token()
        let generated = try await token.run(["keys", "generate", "--token", token.uri, "--label", "line-master"])
        #expect(generated.status == 0 && generated.stdout.contains("AES-128 key \"line-master\""), "\(generated)")
        let fingerprint = try #require(Self.printedFingerprint(generated))
        #expect(Self.isVersion1(fingerprint), "\(fingerprint)")
        let key = try #require(try await token.list()["line-master"])
        #expect(key["type"] as? String == "AES" && key["length"] as? Int == 16)
        #expect(key["sensitive"] as? Bool == true && key["extractable"] as? Bool == false)
        #expect(key["copyable"] as? Bool == false && key["modifiable"] as? Bool == false)
        #expect(key["private"] as? Bool == true && key["never_extractable"] as? Bool == true)
        #expect((key["check_value"] as? String)?.count == 6, "\(key)")
        #expect(key["fingerprint"] as? String == fingerprint)
        let text = try await token.run(["keys", "list", "--token", token.uri])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("\"line-master\": AES, 16 bytes, no id; sensitive, not extractable"))
        #expect(text.stdout.contains("fingerprint \(fingerprint)") && text.stdout.contains("1 secret key"))
        let hmac = try await token.run(["keys", "generate", "--token", token.uri, "--label", "brand", "--hmac"])
        #expect(hmac.status == 0 && hmac.stdout.contains("HMAC-SHA256 key (32 bytes) \"brand\""), "\(hmac)")
        let brand = try #require(try await token.list()["brand"])
        #expect(brand["type"] as? String == "HMAC" && brand["length"] as? Int == 32)
        #expect(brand["sensitive"] as? Bool == true && brand["extractable"] as? Bool == false)
        #expect(brand["fingerprint"] as? String == Self.printedFingerprint(hmac))
    }

    @Test func anImportedFileKeyHasTheFileKeysFingerprintAndDiversifiesAsTheFileDoes() async throws {
        let token = try Token()
        let file = try Self.keyFile(Self.master)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let imported = try await token.run(
            [
                "keys", "import", "--token", token.uri, "--from", "@\(file.path)", "--label", "brand-master", "--id",
                "01",
            ])
        let expected = try KeyFingerprint.aes(try #require(Hex.bytes(Self.master)))
        #expect(imported.status == 0 && Self.printedFingerprint(imported) == expected, "\(imported)")
        Self.expectNothingOf([Self.master], in: imported)
        let key = try #require(try await token.list()["brand-master"])
        #expect(key["fingerprint"] as? String == expected && key["id"] as? String == "01")
        #expect(key["sensitive"] as? Bool == true && key["extractable"] as? Bool == false)
        // The key imported is the file's: diversify gives the same document from either, in the token or not.
        let fromFile = try await token.run(
            ["keys", "diversify", "--master", "@\(file.path)", "--input", Self.input, "--json"])
        let fromToken = try await token.run(
            ["keys", "diversify", "--master", token.hsm.uri(object: "brand-master"), "--input", Self.input, "--json"])
        #expect(fromFile.status == 0 && fromToken.status == 0, "\(fromFile.stderr)\(fromToken.stderr)")
        #expect(fromToken.stdout == fromFile.stdout)
        let document = try JSONContract.check(fromToken, schema: "keys")
        #expect(document["key"] as? String == Self.derived && document["master_fingerprint"] as? String == expected)
        // An NTAG21x brand key of 16 bytes, stored zero-padded, keeps the file key's HMAC fingerprint.
        let brand = "000102030405060708090A0B0C0D0E0F"
        let hmac = try await token.run(
            ["keys", "import", "--token", token.uri, "--from", "env:BRAND", "--label", "brand", "--hmac"],
            environment: ["BRAND": brand])
        #expect(hmac.status == 0, "\(hmac.stderr)")
        #expect(Self.printedFingerprint(hmac) == KeyFingerprint.hmac(try #require(Hex.bytes(brand))))
        Self.expectNothingOf([brand], in: hmac)
    }

    @Test func importOrGenerateOverAnExistingLabelIsRefusedAndChangesNothing() async throws {
        let token = try Token()
        let file = try Self.keyFile(Self.master)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let first = try await token.run(
            ["keys", "import", "--token", token.uri, "--from", "@\(file.path)", "--label", "brand-master"])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try await token.run(["keys", "list", "--token", token.uri, "--json"])
        let other = String(repeating: "5A", count: 16)
        let again = try await token.run(
            ["keys", "import", "--token", token.uri, "--from", "env:OTHER", "--label", "brand-master"],
            environment: ["OTHER": other])
        #expect(again.status == 73 && again.stderr.contains("already holds a secret key labelled"), "\(again)")
        Self.expectNothingOf([other, Self.master], in: again)
        let generated = try await token.run(["keys", "generate", "--token", token.uri, "--label", "brand-master"])
        #expect(generated.status == 73, "\(generated)")
        let after = try await token.run(["keys", "list", "--token", token.uri, "--json"])
        #expect(after.status == 0 && after.stdout == before.stdout, "\(after.stdout)")
    }

    @Test func aWrongPINIsRefusedWith77AndNeverShown() async throws {
        let token = try Token()
        let folder = try Fixtures.temporaryDirectory("token-pin")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pinFile = folder.appendingPathComponent("pin")
        try Data("975310\n".utf8).write(to: pinFile)
        chmod(pinFile.path, 0o600)
        let byFile = try await token.run(["keys", "list", "--token", token.uriWithoutPIN, "--pin-file", pinFile.path])
        let byEnv = try await token.run(
            ["keys", "list", "--token", token.uriWithoutPIN, "--pin-env", "PIN"], environment: ["PIN": "975310"])
        for outcome in [byFile, byEnv] {
            #expect(outcome.status == 77 && outcome.stderr.contains("refused the PIN"), "\(outcome)")
            Self.expectNothingOf(["975310"], in: outcome)
        }
        let right = try await token.run(
            ["keys", "list", "--token", token.uriWithoutPIN, "--pin-env", "PIN"],
            environment: ["PIN": token.hsm.userPIN])
        #expect(right.status == 0 && right.stdout.contains("0 secret keys"), "\(right)")
        let onArgv = try await token.run(["keys", "list", "--token", token.uriWithoutPIN, "--pin", "975310"])
        #expect(onArgv.status == 64 && onArgv.stderr.contains("--pin is not accepted"), "\(onArgv)")
        Self.expectNothingOf(["975310"], in: onArgv)
    }

    @Test func aMissingObjectIs66() async throws {
        let token = try Token()
        let diversify = try await token.run(
            ["keys", "diversify", "--master", token.hsm.uri(object: "absent"), "--input", Self.input])
        #expect(diversify.status == 66 && diversify.stderr.contains("label \"absent\""), "\(diversify)")
        let list = try await token.run(["keys", "list", "--token", token.hsm.uri(object: "absent")])
        #expect(list.status == 66 && list.stderr.contains("label \"absent\""), "\(list)")
        let noToken = try await token.run(
            [
                "keys", "list", "--token",
                token.uri.replacingOccurrences(of: "token=\(token.hsm.label)", with: "token=x"),
            ])
        #expect(noToken.status == 66 && noToken.stderr.contains("no token matching token=x"), "\(noToken)")
    }

    @Test func anExtractableMasterIsRefusedNamingItsAttributesUnlessAllowed() async throws {
        let token = try Token()
        let bytes = try #require(Hex.bytes(Self.master))
        try await token.hsm.importKeys([SoftHSMToken.TestKey(label: "loose", bytes: bytes, extractable: true)])
        let uri = token.hsm.uri(object: "loose")
        let refused = try await token.run(["keys", "diversify", "--master", uri, "--input", Self.input])
        #expect(refused.status == 65 && refused.stderr.contains("not sensitive, extractable"), "\(refused)")
        #expect(refused.stdout.isEmpty)
        let allowed = try await token.run(
            ["keys", "diversify", "--master", uri, "--input", Self.input, "--allow-extractable-key"])
        #expect(allowed.status == 0 && allowed.stdout == Self.derived + "\n", "\(allowed)")
        #expect(allowed.stderr.contains("warning: ") && allowed.stderr.contains("--allow-extractable-key"))
        Self.expectNothingOf([Self.master], in: refused)
        Self.expectNothingOf([Self.master], in: allowed)
        let listed = try #require(try await token.list()["loose"])
        #expect(listed["sensitive"] as? Bool == false && listed["extractable"] as? Bool == true)
    }

    @Test(arguments: [
        (["keys", "generate", "--label", "x", "--json"], "--json belongs to"),
        (["keys", "import", "--label", "x", "--from", "pkcs11:token=t"], "a key in a token stays there"),
        (["keys", "list", "--label", "x"], "--label belongs to keys generate and keys import"),
        (["keys", "generate"], "missing --label"),
    ])
    func badUseIsAUsageError(arguments: [String], message: String) throws {
        let outcome = try ProvisionProcess.run(arguments + ["--token", "pkcs11:token=t"])
        #expect(outcome.status == 64 && outcome.stderr.contains(message), "\(outcome)")
    }
}
