import Foundation
import NDEF
import TestSupport
import Testing

/// Jobs whose master key stays in a PKCS #11 token (a private SoftHSM2 token per test), run as a line engineer runs
/// them: the tags come out byte for byte as with the same key from a file or the environment, a tap verifies, and
/// a token that refuses (PIN, object, custody) stops the job before any tag with a clear error and no key bytes.
@Suite struct TokenKeyJobTests {
    /// Runs `arguments` in `folder` with the token's environment added.
    static func provision(
        _ arguments: [String], _ folder: JobFolder, token: SoftHSMToken? = nil, env: [String: String] = [:]
    ) async throws -> ProvisionProcess.Outcome {
        let environment = (token?.environment ?? [:]).merging(env) { $1 }
        return try await onThread {
            try ProvisionProcess.run(arguments, directory: folder.url, environment: environment)
        }
    }

    /// Every tag image the simulator stored, by file name.
    static func images(_ folder: JobFolder) throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.store.path).sorted()
        return try Dictionary(
            uniqueKeysWithValues: names.map { ($0, try Data(contentsOf: folder.store.appendingPathComponent($0))) })
    }

    /// An NTAG21x job that protects each tag with PWD/PACK from `brand` and MACs its URL with it.
    static func protectedJob(key: String) throws -> JobFolder {
        let folder = try JobFolder(
            rows: 3, lock: false,
            extra: #", "keys": {"brand": \#(key)}, "protect": {"key": "brand", "auth0": "ndef", "authlim": 3}"#)
        let template = """
            {"records": [{"type": "uri",
              "uri": "https://example.com/t?u={{uid}}&s={{serial}}&m={{mac:brand:uid,serial}}"}]}
            """
        try Data(template.utf8).write(to: folder.url.appendingPathComponent("template.json"))
        return folder
    }

    @Test func anNTAG21xJobWithItsBrandKeyInATokenMakesTheSameTagsAsWithTheKeyInTheEnvironment() async throws {
        let token = try SoftHSMToken.make()
        defer { token.remove() }
        try await token.importKeys([.init(label: "brand", bytes: authTestKey, hmac: true)])
        let keyHex = Hex.compact(authTestKey)

        let fromEnv = try Self.protectedJob(key: #"{"env": "BRAND_KEY"}"#)
        let spec = { (folder: JobFolder) in folder.sim(uid: "04000000000001", options: "count=3") }
        let first = try await Self.provision(
            ["run", "job.json", "--quiet", "--reader", spec(fromEnv)], fromEnv, env: ["BRAND_KEY": keyHex])
        #expect(first.status == 0, "\(first.stderr)")

        let fromToken = try Self.protectedJob(key: #"{"pkcs11": "\#(token.uri(object: "brand"))"}"#)
        let second = try await Self.provision(
            ["run", "job.json", "--reader", spec(fromToken)], fromToken, token: token)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try fromToken.query("SELECT state, count(*) FROM records GROUP BY state") == [["done", "3"]])
        #expect(try Self.images(fromToken) == Self.images(fromEnv))
        #expect(try Self.images(fromEnv).keys.filter { $0.hasSuffix(".bin") }.count == 3)
        // The same key has the same fingerprint wherever it lives, printed at start and recorded per tag.
        let recorded = try fromEnv.query("SELECT DISTINCT key_fingerprint FROM tags")
        #expect(try fromToken.query("SELECT DISTINCT key_fingerprint FROM tags") == recorded)
        #expect(recorded.first?.first?.hasPrefix("v1:") == true)
        #expect(second.stderr.contains("key brand: fingerprint \(recorded[0][0])"), "\(second.stderr)")
        for text in [second.stdout, second.stderr] {
            #expect(!text.uppercased().contains(keyHex) && !text.contains(token.userPIN + "\n"))
        }
    }

    @Test func aSUNJobWithItsMasterInATokenMakesTheSameTagsAndItsTapsVerify() async throws {
        let token = try SoftHSMToken.make()
        defer { token.remove() }
        let master = try #require(Hex.bytes(RunNTAG424Tests.master))
        try await token.importKeys([.init(label: "brand-master", bytes: master)])

        let fromEnv = try RunNTAG424Tests.folder(rows: 3)
        let spec = { (folder: JobFolder) in folder.sim("ntag424", uid: "04C40000000001", options: "count=3") }
        let first = try await Self.provision(
            ["run", "job.json", "--quiet", "--reader", spec(fromEnv)], fromEnv, env: RunNTAG424Tests.environment)
        #expect(first.status == 0, "\(first.stderr)")

        let fromToken = try RunNTAG424Tests.folder(rows: 3)
        let manifest = fromToken.url.appendingPathComponent("job.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let tokenKey = #"{"pkcs11": "\#(token.uri(object: "brand-master"))"}"#
        try Data(text.replacingOccurrences(of: #"{"env": "BRAND_KEY"}"#, with: tokenKey).utf8).write(to: manifest)
        let second = try await Self.provision(
            ["run", "job.json", "--quiet", "--reader", spec(fromToken)], fromToken, token: token)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try fromToken.query("SELECT state, count(*) FROM records GROUP BY state") == [["done", "3"]])
        // Tag images (the NDEF file, SDM settings and K0–K4 included) are byte for byte the file-key job's.
        #expect(try Self.images(fromToken) == Self.images(fromEnv))
        #expect(try fromToken.query("SELECT count(*) FROM key_changes WHERE state = 'done'") == [["15"]])

        // A tap of tag 2, read like a phone, verifies with the master in the token: valid, then replayed.
        let inspect = try await Self.provision(
            ["inspect", "--json", "--reader", fromToken.sim("ntag424", uid: "04C40000000002")], fromToken)
        let url = String(
            try #require(inspect.stdout.firstMatch(of: /https:\/\/e\.io\/SKU-2\?p=[0-9A-F]{32}&m=[0-9A-F]{16}/)).output)
        let verify = { (url: String) in
            try await Self.provision(["verify-url", url, "--manifest", "job.json"], fromToken, token: token)
        }
        let valid = try await verify(url)
        #expect(valid.status == 0 && valid.stdout.hasPrefix("valid"), "\(valid.stdout)\(valid.stderr)")
        let replayed = try await verify(url)
        #expect(replayed.stdout.hasPrefix("replayed"), "\(replayed.stdout)\(replayed.stderr)")
        let tampered = url.replacingOccurrences(of: "&m=", with: "&m=0").dropLast()
        let invalid = try await verify(String(tampered))
        #expect(invalid.stdout.hasPrefix("invalid"), "\(invalid.stdout)\(invalid.stderr)")
    }

    @Test func aTokenThatRefusesStopsTheJobBeforeAnyTagWithTheRightExitCode() async throws {
        let token = try SoftHSMToken.make()
        defer { token.remove() }
        try await token.importKeys([
            .init(label: "brand", bytes: authTestKey, hmac: true),
            .init(label: "loose", bytes: authTestKey, hmac: true, extractable: true),
        ])
        let wrongPIN = token.directory + "/wrong.pin"
        _ = FileManager.default.createFile(
            atPath: wrongPIN, contents: Data("9999\n".utf8), attributes: [.posixPermissions: 0o600])
        let cases: [(uri: String, status: Int32, says: String)] = [
            (token.uri(object: "brand").replacingOccurrences(of: token.pinFile, with: wrongPIN), 77, "PIN"),
            (token.uri(object: "missing"), 66, "no secret key with label \"missing\""),
            (token.uri(object: "loose"), 65, "is not sensitive, extractable"),
            (
                token.uri(object: "brand").replacingOccurrences(of: "token=\(token.label)", with: "token=other"), 66,
                "no token matching token=other"
            ),
        ]
        for (uri, status, says) in cases {
            let folder = try Self.protectedJob(key: #"{"pkcs11": "\#(uri)"}"#)
            let run = try await Self.provision(
                ["run", "job.json", "--quiet", "--reader", folder.sim(uid: "04000000000001")], folder, token: token)
            #expect(run.status == status, "\(uri): \(run.stderr)")
            #expect(run.stderr.contains(says), "\(run.stderr)")
            #expect(run.stderr.contains("key 'brand'"), "\(run.stderr)")
            #expect(!run.stderr.uppercased().contains(Hex.compact(authTestKey)) && !run.stderr.contains("1234"))
            #expect(
                !FileManager.default.fileExists(atPath: folder.store.appendingPathComponent("04000000000001.bin").path))
        }
        // A trial may accept the loose key explicitly; the run then warns and proceeds.
        let folder = try Self.protectedJob(key: #"{"pkcs11": "\#(token.uri(object: "loose"))"}"#)
        let run = try await Self.provision(
            ["run", "job.json", "--quiet", "--allow-extractable-key", "--reader", folder.sim(uid: "04000000000001")],
            folder, token: token)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: key 'brand': token key \"loose\" is not sensitive, extractable"))
    }

    @Test func aDocumentedSampleKeyInATokenIsRefusedOnARealReaderByItsFingerprint() async throws {
        let token = try SoftHSMToken.make()
        defer { token.remove() }
        // The documented sample brand key (PROVISION_SAMPLE_BRAND_KEY, 00 01 … 1F), moved into a token.
        try await token.importKeys([.init(label: "sample", bytes: Array(0...31), hmac: true)])
        let folder = try Self.protectedJob(key: #"{"pkcs11": "\#(token.uri(object: "sample"))"}"#)
        let reader = "nfc:pn532_uart:/dev/provision-no-such-reader"
        let refused = try await Self.provision(
            ["run", "job.json", "--quiet", "--reader", reader], folder, token: token)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("key 'brand' is the documented sample key"), "\(refused.stderr)")
        let allowed = try await Self.provision(
            ["run", "job.json", "--quiet", "--allow-test-keys", "--reader", reader], folder, token: token)
        #expect(allowed.status != 65, "with --allow-test-keys it gets as far as the absent reader: \(allowed.stderr)")
    }

    @Test func aManifestKeyEntryGivesThePINFromTheEnvironmentOrAnOwnerOnlyFileAndTheKeyById() async throws {
        let token = try SoftHSMToken.make()
        defer { token.remove() }
        try await token.importKeys([.init(label: "brand", bytes: authTestKey, hmac: true, id: [0x01])])
        let base = "pkcs11:token=\(token.label);object=brand?module-path=\(token.modulePath)"
        let spec = { (folder: JobFolder) in folder.sim(uid: "04000000000001") }
        // "pin": {"env": …}: the PIN from the environment, never from the command line.
        let fromEnv = try Self.protectedJob(key: #"{"pkcs11": "\#(base)", "pin": {"env": "TOKEN_PIN"}}"#)
        let ran = try await Self.provision(
            ["run", "job.json", "--quiet", "--reader", spec(fromEnv)], fromEnv, token: token,
            env: ["TOKEN_PIN": token.userPIN])
        #expect(ran.status == 0, "\(ran.stderr)")
        // "pin": {"file": …} readable by others: refused like such a key file (77), before any tag.
        let loose = token.directory + "/loose.pin"
        _ = FileManager.default.createFile(
            atPath: loose, contents: Data(token.userPIN.utf8), attributes: [.posixPermissions: 0o644])
        let fromFile = try Self.protectedJob(key: #"{"pkcs11": "\#(base)", "pin": {"file": "\#(loose)"}}"#)
        let refused = try await Self.provision(
            ["run", "job.json", "--quiet", "--reader", spec(fromFile)], fromFile, token: token)
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(refused.stderr.contains("PIN file") && refused.stderr.contains("chmod 600"), "\(refused.stderr)")
        // The object named by its CKA_ID instead of its label (id=%…), found the same.
        let byID = try Self.protectedJob(
            key: #"{"pkcs11": "pkcs11:token=\#(token.label);id=%01?module-path=\#(token.modulePath)"#
                + #"&pin-source=file:\#(token.pinFile)"}"#)
        let found = try await Self.provision(
            ["run", "job.json", "--quiet", "--reader", spec(byID)], byID, token: token)
        #expect(found.status == 0, "\(found.stderr)")
    }

    @Test func theExplicitSUNKeysStayFilesOrEnvironmentAndSayWhereATokenMasterGoes() async throws {
        let token = try SoftHSMToken.make()
        defer { token.remove() }
        try await token.importKeys([.init(label: "meta", bytes: [UInt8](repeating: 0, count: 16))])
        let folder = try Self.protectedJob(key: #"{"env": "BRAND_KEY"}"#)
        let url = "https://e.io/t?picc_data=EF963FF7828658A599F3041510671E88&cmac=94EED9EE65337086"
        let refused = try await Self.provision(
            ["verify-url", url, "--meta-key", token.uri(object: "meta"), "--file-key", "env:FILE_KEY"], folder,
            token: token, env: ["FILE_KEY": String(repeating: "00", count: 16)])
        #expect(refused.status == 65, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("verify with --manifest"), "\(refused.stderr)")
    }

    @Test func aManifestTokenKeyIsCheckedWhenTheManifestIsRead() async throws {
        let cases: [(key: String, says: String)] = [
            (#"{"pkcs11": "pkcs11:object=m?pin-value=1234"}"#, "pin-value"),
            (#"{"pkcs11": "token=a;object=m"}"#, "starts with \"pkcs11:\""),
            (#"{"pkcs11": "pkcs11:object=m", "encoding": "hex"}"#, "keys.brand.encoding"),
            (#"{"env": "K", "pin": {"env": "P"}}"#, "keys.brand.pin"),
            (#"{"pkcs11": "pkcs11:object=m", "pin": {"env": "P", "file": "p"}}"#, "keys.brand.pin"),
        ]
        for (key, says) in cases {
            let folder = try Self.protectedJob(key: key)
            let run = try await Self.provision(
                ["run", "job.json", "--reader", folder.sim(uid: "04000000000001")], folder)
            #expect(run.status == 65, "\(key): \(run.stderr)")
            #expect(run.stderr.contains("job.json") && run.stderr.contains(says), "\(key): \(run.stderr)")
            #expect(!run.stderr.contains("1234"), "the PIN value is never echoed: \(run.stderr)")
        }
    }
}
