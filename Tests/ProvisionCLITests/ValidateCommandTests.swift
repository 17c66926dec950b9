import Crypto
import Foundation
import NDEF
import ProvisionCLI
import TestSupport
import Testing

/// Every folder of `Tests/Fixtures/bad/` (see its README).
private let badCases: [String] = {
    let folder = Fixtures.url("bad")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { !$0.hasSuffix(".md") }.sorted()
}()

/// Every file under `url`, relative, sorted.
private func listing(_ url: URL) -> [String] {
    let names = FileManager.default.enumerator(atPath: url.path)?.compactMap { $0 as? String } ?? []
    return names.sorted()
}

@Test func badCorpusHasAtLeast200Cases() {
    #expect(badCases.count >= 200)
}

/// The command a case runs: `command.txt` (one line of arguments) or `validate job.json`.
private func command(of folder: URL) -> [String] {
    guard let text = try? String(contentsOf: folder.appendingPathComponent("command.txt"), encoding: .utf8) else {
        return ["validate", "job.json"]
    }
    return text.split(whereSeparator: \.isWhitespace).map(String.init)
}

@Test(arguments: badCases)
func badInputFailsWithItsExactMessageAndCreatesNothing(_ name: String) async throws {
    let folder = Fixtures.url("bad/\(name)")
    let expected = try String(contentsOf: folder.appendingPathComponent("expected.txt"), encoding: .utf8)
    let before = listing(folder)
    let context = CommandContext.buffered(currentDirectory: folder)
    let status = await ProvisionCLI.run(command(of: folder), context: context)
    #expect("exit \(status)\n" + context.err.text == expected)
    #expect(status == 65 || status == 66)
    #expect(context.out.text.isEmpty)
    #expect(listing(folder) == before)
}

/// The same inputs through `provision run` with a simulated reader storing its tags: same first line of
/// error, same exit status, no ledger, no report, and no tag image (no tag touched).
@Test(
    arguments: badCases.filter { !FileManager.default.fileExists(atPath: Fixtures.url("bad/\($0)/command.txt").path) })
func badInputMakesRunFailBeforeAnyTagOrLedger(_ name: String) async throws {
    let source = Fixtures.url("bad/\(name)")
    let folder = try Fixtures.temporaryDirectory("bad-run")
    defer { try? FileManager.default.removeItem(at: folder) }
    for file in try FileManager.default.contentsOfDirectory(atPath: source.path) {
        try FileManager.default.copyItem(
            at: source.appendingPathComponent(file), to: folder.appendingPathComponent(file))
    }
    let store = folder.appendingPathComponent("store")
    try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
    let before = listing(folder)
    let expected = try String(contentsOf: source.appendingPathComponent("expected.txt"), encoding: .utf8)
    let lines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let context = CommandContext.buffered(currentDirectory: folder)
    let status = await ProvisionCLI.run(
        ["run", "job.json", "--reader", "sim:ntag213?uid=04000000000001&store=\(store.path)", "--quiet"],
        context: context)
    #expect("exit \(status)" == lines.first.map(String.init))
    #expect(context.err.text.hasPrefix(lines.dropFirst().first.map(String.init) ?? "?"))
    #expect(listing(folder) == before)
}

@Test func missingManifestExits66() async throws {
    let folder = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let context = CommandContext.buffered(currentDirectory: folder)
    #expect(await ProvisionCLI.run(["validate", "nope.json"], context: context) == 66)
    #expect(context.err.text == "error: nope.json: no such file\n")
    #expect(listing(folder).isEmpty)
}

@Test func validateNeedsExactlyOneManifest() async {
    let context = CommandContext.buffered()
    #expect(await ProvisionCLI.run(["validate"], context: context) == 64)
    #expect(context.err.text.hasPrefix("error: missing argument"))
}

/// Copies the sample jobs and templates into a fresh folder, so a run there can prove it creates nothing.
private func sampleCopy() throws -> URL { try Fixtures.sampleJobsCopy("validate-samples") }

@Test func sampleBatchValidatesWithItsSummaryAndCreatesNoLedger() throws {
    let folder = try sampleCopy()
    defer { try? FileManager.default.removeItem(at: folder) }
    let before = listing(folder)
    let outcome = try ProvisionProcess.run(["validate", "jobs/batch.json"], directory: folder)
    #expect(outcome.status == 0)
    #expect(outcome.stderr.isEmpty)
    #expect(outcome.stdout.hasPrefix("job batch: 200 rows valid for NTAG215\n"))
    #expect(outcome.stdout.contains("capacity: 492 bytes, headroom "))
    #expect(outcome.stdout.contains("uid and timestamp sized at their maximum"))
    #expect(listing(folder) == before)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("reports").path))
}

@Test func sampleInlineJobValidatesAsJSON() async throws {
    let folder = try sampleCopy()
    defer { try? FileManager.default.removeItem(at: folder) }
    let context = CommandContext.buffered(currentDirectory: folder)
    #expect(await ProvisionCLI.run(["validate", "jobs/event-badges.json", "--json"], context: context) == 0)
    let object = try JSONSerialization.jsonObject(with: Data(context.out.text.utf8)) as? [String: Any]
    let json = try #require(object)
    #expect(json["version"] as? Int == 2)
    #expect(json["valid"] as? Bool == true)
    #expect(json["job"] as? String == "event-badges")
    #expect(json["rows"] as? Int == 4)
    #expect(json["tag"] as? String == "ntag215")
    #expect(json["capacity"] as? Int == 492)
    #expect(json["tlv_bytes_max"] as? Int == 278)
    #expect(json["problem_count"] as? Int == 0)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("reports").path))
}

@Test func jsonOutputListsProblemsWithRowNumbers() async throws {
    let folder = Fixtures.url("bad/preflight-row-too-large")
    let context = CommandContext.buffered(currentDirectory: folder)
    #expect(await ProvisionCLI.run(["validate", "job.json", "--json"], context: context) == 65)
    let object = try JSONSerialization.jsonObject(with: Data(context.out.text.utf8)) as? [String: Any]
    let json = try #require(object)
    #expect(json["valid"] as? Bool == false)
    let problems = try #require(json["problems"] as? [[String: Any]])
    #expect(problems.count == 1)
    #expect(problems.first?["row"] as? Int == 3)
    #expect(problems.first?["line"] as? Int == 4)
    #expect(problems.first?["code"] as? String == "capacityExceeded")
}

@Test func validateIsListedInHelp() async {
    let context = CommandContext.buffered()
    #expect(await ProvisionCLI.run(["--help"], context: context) == 0)
    #expect(context.out.text.contains("  validate "))
    let own = CommandContext.buffered()
    #expect(await ProvisionCLI.run(["validate", "--help"], context: own) == 0)
    #expect(own.out.text.hasPrefix("Usage: provision validate MANIFEST [--json]"))
}

/// Issue 40: a job whose signature policy refuses every simulated tag, run on the simulator, is warned about; a
/// job trusting the repository's test key, recording signatures or naming a real reader is not.
@Test(arguments: [
    (#", "signature": {"mode": "require"}"#, true),
    (#", "signature": {"mode": "require"}, "readers": ["sim:ntag215?count=3"]"#, true),
    (#", "signature": {"mode": "record"}"#, false),
    (#", "signature": {"mode": "require"}, "readers": ["pcsc:#0"]"#, false),
    (
        #", "signature": {"mode": "require", "trust": [""#
            + Hex.compact(OriginalitySignature.repositoryTestPublicKey) + #""]}"#, false
    ),
])
func validateWarnsWhenSimulatedTagsCannotPassTheSignaturePolicy(_ extra: String, warns: Bool) async throws {
    let folder = try JobFolder(rows: 2, extra: extra)
    defer { try? FileManager.default.removeItem(at: folder.url) }
    let context = CommandContext.buffered(currentDirectory: folder.url)
    let status = await ProvisionCLI.run(["validate", "job.json"], context: context)
    #expect(status == 0, "\(context.err.text)")
    #expect(context.err.text.contains("every simulated tag will be refused (signatureInvalid)") == warns)
}
