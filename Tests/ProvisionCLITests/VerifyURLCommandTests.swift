import Foundation
import NDEF
import TestSupport
import Testing

/// `provision verify-url` against forged counters, UID probing, long URLs and keys on the command line
/// (issue 27, items 1, 2 and 5), on a real run's ledger and a tag's real tap URL.
@Suite(.serialized) struct VerifyURLCommandTests {
    let job: AuthTapJob
    let reader: String

    init() async throws {
        job = try AuthTapJob()
        reader = job.folder.sim(uid: "04000000000001", options: "count=2")
        let run = try await job.run(reader: reader)
        #expect(run.status == 0, "\(run.stderr)")
    }

    private func verify(_ url: String, _ extra: [String] = [], env: [String: String]? = nil) throws
        -> ProvisionProcess.Outcome
    {
        try ProvisionProcess.run(
            ["verify-url", url, "--manifest", "job.json"] + extra, directory: job.folder.url,
            environment: env ?? job.env)
    }

    /// The URL with its counter window replaced by `counter` (6 characters as typed by a forger).
    private func forged(_ url: String, counter: String) -> String { AuthTapJob.url(url, counter: counter) }

    @Test func aForgedCounterNeverBlocksGenuineTaps() async throws {
        let first = try await job.tap(reader: reader).url
        let valid = try verify(first)
        #expect(valid.status == 0 && valid.stdout.hasPrefix("valid"), "\(valid.stdout)\(valid.stderr)")
        #expect(valid.stdout.contains("MAC valid; counter not authenticated on NTAG21x"), "\(valid.stdout)")
        // FFFFFF: the MAC still matches (the counter is outside it) but the jump is implausible.
        let high = try verify(forged(first, counter: "FFFFFF"))
        #expect(high.status == 1 && high.stdout.hasPrefix("suspicious"), "\(high.stdout)\(high.stderr)")
        let big = try verify(forged(first, counter: "0003E9"), ["--counter-window", "10"])
        #expect(big.status == 1 && big.stdout.hasPrefix("suspicious"), "\(big.stdout)")
        // Nothing was stored: the next genuine tap is valid, not 'replayed'.
        let second = try await job.tap(reader: reader).url
        let next = try verify(second)
        #expect(next.status == 0 && next.stdout.hasPrefix("valid"), "\(next.stdout)\(next.stderr)")
        let replayed = try verify(first)
        #expect(replayed.status == 1 && replayed.stdout.hasPrefix("replayed"), "\(replayed.stdout)")
    }

    @Test(arguments: ["ZZZZZZ", "00000a", "+00001", " 00001", "0000 1"])
    func aCounterWindowNotInTheChipsFormIsInvalid(counter: String) async throws {
        let url = try await job.tap(reader: reader).url
        let outcome = try verify(forged(url, counter: counter))
        #expect(outcome.status == 1 && outcome.stdout.hasPrefix("invalid"), "\(outcome.stdout)\(outcome.stderr)")
    }

    @Test func aUIDNotInTheJobIsInvalidUnlessAskedAsOperator() async throws {
        let url = try await job.tap(reader: reader).url
        let stranger = url.replacingOccurrences(of: "m=04000000000001", with: "m=04000000000099")
        let outside = try verify(stranger)
        #expect(outside.status == 1 && outside.stdout.hasPrefix("invalid"), "\(outside.stdout)")
        #expect(!outside.stdout.contains("04000000000099") && !outside.stdout.contains("not a tag of job t"))
        let badMAC = try verify(String(url.dropLast()) + (url.last == "0" ? "1" : "0"))
        #expect(badMAC.stdout == outside.stdout, "the answers must not tell the two apart")
        let diagnostics = try verify(stranger, ["--operator"])
        #expect(diagnostics.status == 1 && diagnostics.stdout.hasPrefix("unknown"), "\(diagnostics.stdout)")
    }

    /// What docs/authentication.md says a forged counter can do (issue 44 item 4, finding 6): the NTAG21x counter is
    /// not authenticated, so a forged rise within the window is stored like a genuine one and the tag's next genuine
    /// taps answer `replayed`; steps walk the mark up; only a jump beyond the window is `suspicious` and not stored.
    @Test func aForgedRiseWithinTheWindowIsStoredAndTheNextGenuineTapIsReplayed() async throws {
        let first = try await job.tap(reader: reader).url
        let window = ["--counter-window", "10"]
        #expect(try verify(first, window).status == 0)
        let shown = try #require(first.range(of: #"x[0-9A-F]{6}&"#, options: .regularExpression))
        let counter = try #require(Int(first[shown].dropFirst().dropLast(), radix: 16))
        func at(_ value: Int) -> String { forged(first, counter: String(format: "%06X", value)) }
        let stored = try verify(at(counter + 10), window)
        #expect(stored.status == 0 && stored.stdout.hasPrefix("valid"), "\(stored.stdout)")
        let genuine = try verify(try await job.tap(reader: reader).url, window)
        #expect(genuine.status == 1 && genuine.stdout.hasPrefix("replayed"), "\(genuine.stdout)")
        let step = try verify(at(counter + 20), window)
        #expect(step.status == 0 && step.stdout.hasPrefix("valid"), "\(step.stdout)")
        let jump = try verify(at(counter + 31), window)
        #expect(jump.status == 1 && jump.stdout.hasPrefix("suspicious"), "\(jump.stdout)")
    }

    @Test func jsonGivesTheVerdictAsOneDocumentWithTheSameExitCode() async throws {
        let url = try await job.tap(reader: reader).url
        let valid = try verify(url, ["--json"])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(valid.stdout.utf8)) as? [String: Any], "\(valid.stdout)")
        #expect(valid.status == 0 && document["version"] as? Int == 2, "\(valid.stderr)")
        #expect(document["verdict"] as? String == "valid" && document["valid"] as? Bool == true)
        let replayed = try verify(url, ["--json"])
        let again = try #require(try JSONSerialization.jsonObject(with: Data(replayed.stdout.utf8)) as? [String: Any])
        #expect(replayed.status == 1 && again["verdict"] as? String == "replayed" && again["valid"] as? Bool == false)
    }

    @Test func aURLOverTwoKiBIsRefusedUnread() throws {
        let long = "https://example.com/a/" + String(repeating: "/", count: 2100)
        let outcome = try verify(long)
        #expect(outcome.status == 65 && outcome.stderr.contains("at most 2048"), "\(outcome.stderr)")
    }

    @Test func keysComeFromAFileOrTheEnvironmentNeverTheCommandLine() async throws {
        let url = try await job.tap(reader: reader).url
        let raw = try verify(url, ["--key", "brand=\(job.keyHex)"], env: [:])
        #expect(raw.status == 64, "\(raw.stderr)")
        #expect(!raw.stderr.contains(job.keyHex) && raw.stderr.contains("@FILE"), "\(raw.stderr)")
        let fromEnv = try verify(url, ["--key", "brand=env:OTHER_NAME"], env: ["OTHER_NAME": job.keyHex])
        #expect(fromEnv.status == 0 && fromEnv.stdout.hasPrefix("valid"), "\(fromEnv.stdout)\(fromEnv.stderr)")
        let file = job.folder.url.appendingPathComponent("brand.key")
        try Data(job.keyHex.utf8).write(to: file)
        chmod(file.path, 0o600)
        let second = try await job.tap(reader: reader).url
        let fromFile = try verify(second, ["--key", "brand=@\(file.path)"], env: [:])
        #expect(fromFile.status == 0 && fromFile.stdout.hasPrefix("valid"), "\(fromFile.stdout)\(fromFile.stderr)")
        chmod(file.path, 0o644)
        let open = try verify(second, ["--key", "brand=@\(file.path)"], env: [:])
        #expect(open.status == 77, "\(open.stderr)")
    }
}
