import Foundation
import Ledger
import TestSupport
import Testing

/// `ledger-bench FOLDER TAGS`, run as `scripts/bench` runs it: every row done through the line's ledger calls.
@Suite struct LedgerBenchTests {
    @Test func everyRowIsClaimedAndDoneWithItsLateTimings() async throws {
        let folder = try Fixtures.temporaryDirectory("ledger-bench")
        defer { try? FileManager.default.removeItem(at: folder) }
        // 130 tags: two full batches of 64 late timings and a partial one.
        let run = try ProvisionProcess.run([folder.path, "130"], executable: "ledger-bench")
        #expect(run.status == 0, "\(run.stderr)")
        let figures = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Double])
        #expect(figures["tags"] == 130)
        #expect((figures["seconds"] ?? 0) > 0)
        #expect((figures["claim_us_mean"] ?? 0) > 0)
        #expect((figures["done_us_mean"] ?? 0) > 0)

        let ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path, readOnly: true)
        let counts = try await ledger.counts(job: "b1")
        #expect(counts.done == 130 && counts.pending == 0 && counts.claimed == 0)
        let attempts = try await ledger.attempts(job: "b1")
        #expect(attempts.count == 130)
        #expect(attempts.allSatisfy { $0.outcome == .done && $0.durations.ledger != nil })
        #expect(Set(attempts.map(\.uid)).count == 130, "one UID a tag")
    }

    @Test func badArgumentsExit64AndWriteNothing() throws {
        let folder = try Fixtures.temporaryDirectory("ledger-bench")
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [[], [folder.path], [folder.path, "0"], [folder.path, "ten"]] {
            let run = try ProvisionProcess.run(arguments, executable: "ledger-bench")
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.contains("usage: ledger-bench FOLDER TAGS"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
