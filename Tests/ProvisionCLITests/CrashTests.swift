import Foundation
import TestSupport
import Testing

/// The short form of the crash test of `make reliability`: `scripts/reliability.py crash` SIGKILLs a
/// 40-row job of each tag family on the simulator (`store=DIR`, `timing=datasheet`) 5 times, reruns it to completion,
/// and checks the invariants after every kill and at the end (no row lost or done twice, every tag image
/// holding the message its ledger row says, every claim left by a kill finished by its own UID).
@Suite(.serialized) struct CrashTests {
    /// Type 2 (NTAG215), Type 4 (a generic T4T locked through its CC write byte), keyed NTAG 424 DNA
    /// personalisation (SUN URL, journaled keys: every key a tag holds is one the ledger names), and TestSupport's
    /// keyed memory family (`kmem`), run by `provision-testfamilies`, the only build that registers it.
    @Test(arguments: ["type2", "type4", "ntag424", "kmem"])
    func fiveRandomKillsLoseNothingAndEveryImageMatchesItsLedgerRow(family: String) throws {
        let folder = try Fixtures.temporaryDirectory("crash-short-\(family)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("crash.json")
        // 40 rows take about 5 s of datasheet time, more than five kills at 0.05–0.8 s can reach: every
        // kill lands. The seed is in every message; PROVISION_TEST_SEED=N replays a failure with it.
        let seed = TestSeed.value
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Fixtures.repositoryRoot.appendingPathComponent("scripts/reliability.py").path, "crash",
            "--kills", "5", "--rows", "40", "--seed", "\(seed)", "--family", family, "--json", out.path,
        ]
        var environment = ProcessInfo.processInfo.environment
        let executable = family == "kmem" ? "provision-testfamilies" : "provision"
        environment["PROVISION"] = ProvisionProcess.executableURL(named: executable).path
        process.environment = environment
        let log = folder.appendingPathComponent("crash.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        process.waitUntilExit()
        // A script that stopped before writing its result says why on stderr: show it.
        let stderr = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard let data = try? Data(contentsOf: out) else {
            let tail = String(stderr.suffix(3000))
            Issue.record(
                "seed \(seed): reliability.py crash wrote no result (exit \(process.terminationStatus)):\n\(tail)")
            return
        }
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let result = try #require(object)
        let violations = try #require(result["violations"] as? [String])
        #expect(violations.isEmpty, "seed \(seed): \(violations)")
        #expect(result["finalExit"] as? Int == 0, "seed \(seed): \(result)")
        #expect(result["kills"] as? Int == 5, "seed \(seed): every kill must land: \(result)")
        #expect(result["killedRunsThatFinishedFirst"] as? Int == 0, "seed \(seed): a run ended before its kill")
        // Every kill is judged: each one's state after the kill was classified into the phase it hit.
        let phases = try #require(result["phasesHit"] as? [String: Int], "seed \(seed): \(result)")
        #expect(phases.values.reduce(0, +) == 5, "seed \(seed): every kill must be judged: \(phases)")
        #expect(process.terminationStatus == 0, "seed \(seed)")
    }
}
