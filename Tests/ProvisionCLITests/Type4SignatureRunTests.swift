import Foundation
import NDEF
import TagEmulator
import TestSupport
import Testing

/// The repository's NTAG 424 DNA test key's public point, as a manifest's `signature.trust` lists it.
let ntag424TestTrustHex = Hex.compact(NTAG424TestSigningKey.publicKey)
/// Another secp224r1 private key: NTAG 424 DNA tags signed with it come from an untrusted source.
let untrustedNTAG424Signer = String(repeating: "5A", count: 28)

/// `signature` on NTAG 424 DNA jobs end to end on the simulator: Read_Sig `90 3C` before anything is written, the
/// emulator signing with the repository's secp224r1 test key, and the job trusting it only when it says so
/// (`docs/reference/type4.md` §2.9, docs/authentication.md).
@Suite(.serialized) struct Type4SignatureRunTests {
    /// The NDEF message a tag's stored image holds (empty: NLEN still 0, nothing written).
    static func message(_ folder: JobFolder, uid: String) throws -> [UInt8] {
        let image = [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("\(uid).bin")))
        return Type4Image.message(in: image, ccSize: 32, lengthField: 2)
    }

    static func job(rows: Int, signature: String) throws -> JobFolder {
        try JobFolder(rows: rows, tag: "ntag424", lock: false, extra: #", "signature": \#(signature)"#)
    }

    /// `provision run` of a `rows`-row job with `signature` on as many simulated tags from `uid` (`options` added).
    static func run(rows: Int, signature: String, uid: String, options: String = "") throws -> (
        JobFolder, ProvisionProcess.Outcome
    ) {
        let folder = try job(rows: rows, signature: signature)
        let spec = folder.sim("ntag424", uid: uid, options: "count=\(rows)" + options)
        return (
            folder, try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        )
    }

    @Test func requireWithTheTestKeyTrustedWritesEveryTagAndRecordsValid() throws {
        let (folder, run) = try Self.run(
            rows: 3, signature: #"{"mode": "require", "trust": ["\#(ntag424TestTrustHex)"]}"#, uid: "04C40000000001")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try folder.query("SELECT count(*) FROM records WHERE state = 'done'") == [["3"]])
        let tags = try folder.query("SELECT uid, signature_status, chip FROM tags ORDER BY row")
        #expect(tags.count == 3 && tags.allSatisfy { $0[1] == "valid" && $0[2] == "ntag424" }, "\(tags)")
        for tag in tags { #expect(!(try Self.message(folder, uid: tag[0])).isEmpty, "\(tag[0]) written") }
    }

    @Test func requireWithoutTrustingTheTestKeyQuarantinesEveryTagUnwritten() throws {
        let (folder, run) = try Self.run(rows: 2, signature: #""require""#, uid: "04C40000000011")
        #expect(run.status == 1, "\(run.stderr)")
        #expect(try folder.query("SELECT count(*) FROM tags") == [["0"]])
        #expect(try folder.query("SELECT count(*) FROM records WHERE state = 'pending'") == [["2"]])
        let failed = try folder.query("SELECT failure_class, phase FROM attempts WHERE outcome = 'failed'")
        #expect(failed.count == 2 && failed.allSatisfy { $0 == ["signatureInvalid", "identify"] }, "\(failed)")
        let failures = try String(contentsOf: folder.reports.appendingPathComponent("failures.csv"), encoding: .utf8)
        #expect(failures.contains("does not verify against any trusted key"), "\(failures)")
        for uid in ["04C40000000011", "04C40000000012"] {
            #expect(try Self.message(folder, uid: uid).isEmpty, "tag \(uid) was written")
        }
    }

    @Test func requireRefusesTagsSignedByAnUntrustedKeyEvenWhenTheTestKeyIsTrusted() throws {
        let (folder, run) = try Self.run(
            rows: 1, signature: #"{"mode": "require", "trust": ["\#(ntag424TestTrustHex)"]}"#, uid: "04C40000000021",
            options: "&signer=\(untrustedNTAG424Signer)")
        #expect(run.status == 1, "\(run.stderr)")
        #expect(try folder.query("SELECT DISTINCT failure_class FROM attempts") == [["signatureInvalid"]])
        #expect(try Self.message(folder, uid: "04C40000000021").isEmpty)
    }

    @Test func recordWritesEveryTagAndRecordsInvalid() throws {
        let (folder, run) = try Self.run(rows: 2, signature: #""record""#, uid: "04C40000000031")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try folder.query("SELECT count(*) FROM records WHERE state = 'done'") == [["2"]])
        #expect(try folder.query("SELECT signature_status FROM tags") == [["invalid"], ["invalid"]])
    }

    @Test func aJobTrustingTheNTAG424TestKeyIsRefusedOnARealReaderUnlessAllowed() throws {
        let folder = try Self.job(rows: 1, signature: #"{"mode": "record", "trust": ["\#(ntag424TestTrustHex)"]}"#)
        let reader = "nfc:pn532_uart:/dev/provision-no-such-reader"
        let refused = try ProvisionProcess.run(
            ["run", "job.json", "--reader", reader, "--quiet"], directory: folder.url)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("repository's NTAG 424 DNA test signing key"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--allow-test-keys"))
        #expect(!FileManager.default.fileExists(atPath: folder.ledger.path))
        let allowed = try ProvisionProcess.run(
            ["run", "job.json", "--reader", reader, "--quiet", "--allow-test-keys"], directory: folder.url)
        #expect(allowed.status == 69, "it gets as far as the absent reader: \(allowed.stderr)")
    }

    @Test func aGenericType4JobMayNotAskForASignature() throws {
        let folder = try JobFolder(rows: 1, tag: "type4", lock: false, extra: #", "signature": "require""#)
        let validate = try ProvisionProcess.run(["validate", "job.json"], directory: folder.url)
        #expect(validate.status == 65)
        #expect(validate.stderr.contains("signature: a generic Type 4 tag has no originality signature"))
    }

    @Test func inspectShowsTheSignatureAndWhichKeyItVerifiesUnder() throws {
        let simulated = try ProvisionProcess.run(["inspect", "--reader", "sim:ntag424?uid=04C40000000041"])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        #expect(simulated.stdout.contains("testKey: valid under the repository's test key only"), "\(simulated.stdout)")
        #expect(simulated.stdout.contains("fails the NXP NTAG 424 DNA key"))
        let untrusted = try ProvisionProcess.run(
            ["inspect", "--reader", "sim:ntag424?uid=04C40000000041&signer=\(untrustedNTAG424Signer)", "--json"])
        #expect(untrusted.status == 0, "\(untrusted.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(untrusted.stdout.utf8)) as? [String: Any])
        let signature = try #require(object["signature"] as? [String: Any])
        #expect(signature["status"] as? String == "invalid")
        #expect((signature["value"] as? String)?.split(separator: " ").count == 56)
        let generic = try ProvisionProcess.run(["inspect", "--reader", "sim:type4?uid=04C40000000042"])
        #expect(generic.stdout.contains("unavailable: provision has no originality check for this chip"))
    }
}
