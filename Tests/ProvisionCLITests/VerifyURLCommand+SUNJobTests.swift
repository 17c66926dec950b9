import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// `provision verify-url URL --manifest JOB` on a keyed NTAG 424 DNA SUN job, as a brand's back end runs it: tap
/// URLs made by the emulated chip with the job's diversified keys, verdicts, exit codes, `--json`, and no key bytes
/// in any output.
@Suite struct VerifyURLSUNJobTests {
    static let uid: [UInt8] = [0x04, 0x5C, 0x11, 0x00, 0x00, 0x00, 0x01]

    /// The verdict document of `outcome`.
    static func document(_ outcome: ProvisionProcess.Outcome) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any], "\(outcome.stdout)")
    }

    /// No output of `outcomes` holds the master key or any of the tag's K0–K4 (any case).
    static func expectNoKeyBytes(_ outcomes: [ProvisionProcess.Outcome], job: SUNTapJob) throws {
        let secrets = [SUNTapJob.masterHex] + (try job.keyHex(uid: uid))
        for outcome in outcomes {
            let text = (outcome.stdout + outcome.stderr).uppercased()
            for secret in secrets { #expect(!text.contains(secret.uppercased()), "key bytes in \(text)") }
        }
    }

    @Test(arguments: ["picc", "empty"])
    func aTapIsValidThenReplayedAndTheNextTapIsValid(macInput: String) async throws {
        let job = try await SUNTapJob(macInput: macInput)
        try await job.markDone(uid: Self.uid)
        let tag = try job.tag(uid: Self.uid)
        let first = try tag.tap()
        let valid = try await job.verify(first)
        #expect(valid.status == 0 && valid.stdout.hasPrefix("valid: SUN valid; UID 045C1100000001, row 1 of job t"))
        #expect(valid.stdout.contains("counter 1\n"), "\(valid.stdout)\(valid.stderr)")
        #expect(valid.stdout.contains("key versions (the ledger's key journal): K0 01, K1 01, K2 01, K3 01, K4 01"))
        let replayed = try await job.verify(first)
        #expect(replayed.status == 1 && replayed.stdout.hasPrefix("replayed: "), "\(replayed.stdout)")
        #expect(replayed.stdout.contains("highest counter verified before: 1"), "\(replayed.stdout)")
        let later = try await job.verify(try tag.tap())
        #expect(later.status == 0 && later.stdout.hasPrefix("valid: "), "\(later.stdout)\(later.stderr)")
        #expect(later.stdout.contains("counter 2") && later.stdout.contains("verified before: 1"), "\(later.stdout)")
        #expect(
            try job.folder.query("SELECT uid, counter FROM sun_counters ORDER BY counter") == [
                ["045C1100000001", "1"], ["045C1100000001", "2"],
            ])
        try Self.expectNoKeyBytes([valid, replayed, later], job: job)
    }

    @Test func aGenuineSUNPastedIntoAnotherProductsURLIsInvalidAndNotCounted() async throws {
        let job = try await SUNTapJob(macInput: "empty")
        try await job.markDone(uid: Self.uid)
        let genuine = try job.tag(uid: Self.uid).tap()
        #expect(genuine.hasPrefix("https://e.io/t/SKU-1?"), "\(genuine)")
        // With macInput empty the MAC covers no URL byte: only the row's own URL can tell the paste.
        let pasted = try await job.verify(genuine.replacingOccurrences(of: "/SKU-1?", with: "/SKU-2?"))
        // The answer is a failed SUN's, naming no UID, counter or row (issue 44 item 4, finding 5).
        #expect(
            pasted.status == 1 && pasted.stdout == "invalid: \(TapVerification.notVerified("SUN"))\n",
            "\(pasted.stdout)\(pasted.stderr)")
        let json = try Self.document(
            try await job.verify(genuine.replacingOccurrences(of: "/SKU-1?", with: "/SKU-2?"), ["--json"]))
        #expect(json["uid"] == nil && json["counter"] == nil && json["row"] == nil, "\(json)")
        let explained = try await job.verify(
            genuine.replacingOccurrences(of: "/SKU-1?", with: "/SKU-2?"), ["--operator"])
        #expect(explained.stdout.contains("pasted into another URL"), "\(explained.stdout)")
        #expect(try job.folder.query("SELECT count(*) FROM sun_counters") == [["0"]])
        let own = try await job.verify(genuine)
        #expect(own.status == 0 && own.stdout.hasPrefix("valid: "), "\(own.stdout)\(own.stderr)")
    }

    /// Four back-end processes verify the same tap at once: one says valid, the others replayed.
    @Test func oneTapVerifiedByFourProcessesAtOnceIsValidOnce() async throws {
        let job = try await SUNTapJob()
        try await job.markDone(uid: Self.uid)
        let url = try job.tag(uid: Self.uid).tap()
        let outcomes = try await withThrowingTaskGroup(of: ProvisionProcess.Outcome.self) { group in
            for _ in 0..<4 { group.addTask { try await job.verify(url) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0.status == 0 && $0.stdout.hasPrefix("valid: ") }.count == 1, "\(outcomes)")
        #expect(outcomes.filter { $0.status == 1 && $0.stdout.hasPrefix("replayed: ") }.count == 3, "\(outcomes)")
        #expect(try job.folder.query("SELECT counter FROM sun_counters") == [["1"]])
    }

    @Test func aTamperedMACIsInvalidAndShowsNothingItDecryptedUnlessOperator() async throws {
        let job = try await SUNTapJob()
        try await job.markDone(uid: Self.uid)
        let url = try job.tag(uid: Self.uid).tap()
        let last = try #require(url.last)
        let tampered = String(url.dropLast()) + (last == "0" ? "1" : "0")
        let invalid = try await job.verify(tampered, ["--json"])
        let document = try Self.document(invalid)
        #expect(invalid.status == 1 && document["verdict"] as? String == "invalid", "\(invalid.stdout)")
        #expect(document["valid"] as? Bool == false && document["uid"] == nil && document["counter"] == nil)
        #expect(!invalid.stdout.contains("045C1100000001"))
        let diagnostics = try await job.verify(tampered, ["--operator"])
        #expect(diagnostics.status == 1 && diagnostics.stdout.hasPrefix("invalid: the SUN does not verify"))
        #expect(
            diagnostics.stdout.contains("operator: the SUN message names UID 045C1100000001, counter 1"),
            "\(diagnostics.stdout)")
        // Nothing was recorded: the genuine URL is still valid.
        let genuine = try await job.verify(url)
        #expect(genuine.status == 0, "\(genuine.stdout)\(genuine.stderr)")
        try Self.expectNoKeyBytes([invalid, diagnostics, genuine], job: job)
    }

    @Test func aGenuineTagNotInTheJobIsUnknownAndAnotherMasterKeyIsInvalid() async throws {
        let job = try await SUNTapJob()
        try await job.markDone(uid: Self.uid)
        let stranger: [UInt8] = [0x04, 0x5C, 0x11, 0x00, 0x00, 0x00, 0x77]
        let unknown = try await job.verify(try job.tag(uid: stranger).tap(), ["--json"])
        let document = try Self.document(unknown)
        #expect(unknown.status == 1 && document["verdict"] as? String == "unknown", "\(unknown.stdout)")
        #expect(document["uid"] as? String == "045C1100000077" && document["counter"] as? Int == 1)
        #expect(document["key_versions"] == nil && document["row"] == nil)
        let foreign = try job.tag(uid: Self.uid, masterHex: String(repeating: "5A", count: 16))
        let wrongKey = try await job.verify(try foreign.tap())
        #expect(wrongKey.status == 1 && wrongKey.stdout.hasPrefix("invalid: "), "\(wrongKey.stdout)")
        #expect(try job.folder.query("SELECT count(*) FROM sun_counters") == [["0"]])
        try Self.expectNoKeyBytes([unknown, wrongKey], job: job)
    }

    @Test func jsonGivesUIDCounterVerdictRowAndKeyVersions() async throws {
        let job = try await SUNTapJob()
        try await job.markDone(uid: Self.uid)
        let url = try job.tag(uid: Self.uid).tap()
        let valid = try await job.verify(url, ["--json"])
        let document = try Self.document(valid)
        #expect(valid.status == 0 && document["version"] as? Int == 2, "\(valid.stderr)")
        #expect(document["verdict"] as? String == "valid" && document["valid"] as? Bool == true)
        #expect(document["uid"] as? String == "045C1100000001" && document["counter"] as? Int == 1)
        #expect(document["row"] as? Int == 1)
        let versions = try #require(document["key_versions"] as? [String: Int])
        #expect(versions == ["k0": 1, "k1": 1, "k2": 1, "k3": 1, "k4": 1])
        let replayed = try Self.document(try await job.verify(url, ["--json"]))
        #expect(replayed["verdict"] as? String == "replayed" && replayed["counter"] as? Int == 1)
        #expect(replayed["key_versions"] as? [String: Int] == versions)
    }

    @Test func theMasterKeyComesFromTheJobsSourcesAndNeverTheCommandLine() async throws {
        let job = try await SUNTapJob()
        try await job.markDone(uid: Self.uid)
        let tag = try job.tag(uid: Self.uid)
        let fromEnv = try await job.verify(
            try tag.tap(), ["--key", "brand=env:OTHER"], env: ["OTHER": SUNTapJob.masterHex])
        #expect(fromEnv.status == 0, "\(fromEnv.stdout)\(fromEnv.stderr)")
        let file = job.folder.url.appendingPathComponent("brand.key")
        try Data(SUNTapJob.masterHex.utf8).write(to: file)
        chmod(file.path, 0o600)
        let fromFile = try await job.verify(try tag.tap(), ["--key", "brand=@\(file.path)"], env: [:])
        #expect(fromFile.status == 0, "\(fromFile.stdout)\(fromFile.stderr)")
        chmod(file.path, 0o644)
        let open = try await job.verify(try tag.tap(), ["--key", "brand=@\(file.path)"], env: [:])
        #expect(open.status == 77, "\(open.stderr)")
        let raw = try await job.verify(try tag.tap(), ["--key", "brand=\(SUNTapJob.masterHex)"])
        #expect(raw.status == 64, "\(raw.stderr)")
        let missing = try await job.verify(try tag.tap(), env: [:])
        #expect(missing.status == 66 && missing.stderr.contains("BRAND_KEY"), "\(missing.stderr)")
        let short = try await job.verify(try tag.tap(), env: ["BRAND_KEY": SUNTapJob.masterHex + "00112233"])
        #expect(short.status == 65 && short.stderr.contains("16 bytes"), "\(short.stderr)")
        try Self.expectNoKeyBytes([fromEnv, fromFile, open, raw, missing, short], job: job)
    }

    @Test(arguments: [
        (["--counter-window", "5"], "--counter-window is for NTAG21x"),
        (["--key", "other=env:BRAND_KEY"], "master key 'brand' only"),
    ])
    func ntag21xOptionsAreUsageErrors(extra: [String], message: String) async throws {
        let job = try await SUNTapJob()
        let outcome = try await job.verify("https://e.io/t/SKU-1?p=00&m=00", extra)
        #expect(outcome.status == 64 && outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test func aTemplateWithoutTheTwoQueryParametersOrAJobNeverRunIsAnError() async throws {
        let plain = try await SUNTapJob(uri: "https://e.io/{{sun.uid}}x{{sun.counter}}/{{sun.mac}}")
        let refused = try await plain.verify("https://e.io/045C1100000001x000001/0011223344556677")
        #expect(refused.status == 65 && refused.stderr.contains("template.json:1"), "\(refused.stderr)")
        #expect(refused.stderr.contains("checks a SUN of {{sun.picc}} and {{sun.mac}}"), "\(refused.stderr)")
        let job = try await SUNTapJob()
        try FileManager.default.removeItem(at: job.folder.reports)
        let noLedger = try await job.verify("https://e.io/t/SKU-1?p=00&m=00")
        #expect(noLedger.status == 66 && noLedger.stderr.contains("no ledger"), "\(noLedger.stderr)")
    }

    @Test func helpExplainsTheThreeModes() throws {
        let help = try ProvisionProcess.run(["verify-url", "--help"])
        #expect(help.status == 0, "\(help.stderr)")
        // The keyed mode is the chip's dynamic message scheme's (SUN for an NTAG 424 DNA), named without the chip.
        for mode in ["NTAG21x job", "Keyed job (a manifest with its chip's keyed section)", "SUN with explicit keys"] {
            #expect(help.stdout.contains(mode), "\(mode)")
        }
    }
}
