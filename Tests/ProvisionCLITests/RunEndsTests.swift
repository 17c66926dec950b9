import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 40 items 1 and 2: `run` never spins or hangs. A refused signature pauses the reader, the last tag left on
/// the reader is not waited for, and a station whose rows are all claimed elsewhere ends naming them.
@Suite(.serialized) struct RunEndsTests {
    /// Runs `provision` in the background and waits for it; a run still going after `limit` is killed (and fails
    /// the test): the guard of a test whose bug is a hang, not a timer the passing run races.
    private func run(_ arguments: [String], in folder: JobFolder, limit: Duration = .seconds(60)) async throws
        -> ProvisionProcess.Outcome
    {
        let process = try ProvisionProcess.start(arguments, directory: folder.url)
        let watchdog = Task {
            try await Task.sleep(for: limit)
            process.signal(SIGKILL)
        }
        defer { watchdog.cancel() }
        let outcome = try await process.wait()
        #expect(outcome.status != 128 + SIGKILL && outcome.status != SIGKILL, "killed after \(limit): it hung")
        return outcome
    }

    @Test func aSignatureNoTrustKeyVerifiesPausesTheReaderAfterFiveAttempts() async throws {
        let folder = try JobFolder(rows: 3, tag: "ntag213", extra: #", "signature": {"mode": "require"}"#)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        // A bounded population: without the pause the run would end only when it is used up.
        let outcome = try await run(
            ["run", "job.json", "--reader", "sim:ntag213?uid=04F00000000001&count=2000", "--idle", "3", "--quiet"],
            in: folder)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains("paused after 5 tags in a row failed with signatureInvalid"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("check the manifest's trust keys"), "\(outcome.stderr)")
        #expect(try folder.query("SELECT count(*), failure_class FROM attempts") == [["5", "signatureInvalid"]])
    }

    @Test func idleEndsARunWhoseTagsAllFailTheirSignature() async throws {
        let folder = try JobFolder(rows: 3, tag: "ntag213", extra: #", "signature": {"mode": "require"}"#)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let outcome = try await run(
            [
                "run", "job.json", "--reader", "sim:ntag213?uid=04F10000000001&count=20000", "--idle", "0.5",
                "--max-consecutive-failures", "0", "--quiet",
            ], in: folder)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let attempts = try #require(Int(try folder.query("SELECT count(*) FROM attempts").first?.first ?? ""))
        #expect(attempts > 0 && attempts < 20000, "idle, not the population, ended the run")
    }

    @Test func theLastTagLeftOnTheReaderIsNotWaitedFor() async throws {
        let folder = try JobFolder(rows: 1, lock: false)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        // The operator takes a tag away after a day: the run must not wait for it.
        let reader = "sim:ntag215?uid=04F20000000001&removal=86400000"
        let loud = try await run(["run", "job.json", "--reader", reader], in: folder)
        #expect(loud.status == 0, "\(loud.stderr)")
        #expect(loud.stderr.contains("job complete: remove the last tag"), "\(loud.stderr)")
        #expect(try folder.query("SELECT state FROM records") == [["done"]])

        let quietFolder = try JobFolder(rows: 1, lock: false)
        defer { try? FileManager.default.removeItem(at: quietFolder.url) }
        let quiet = try await run(["run", "job.json", "--reader", reader, "--quiet"], in: quietFolder)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(!quiet.stderr.contains("job complete"), "\(quiet.stderr)")
    }

    /// Two readers in one run: once one finishes the last row, the other, waiting for a tag that would arrive
    /// after a day (no `--idle`), ends too, and the run exits 0, not as an interrupt. The writing reader's tags
    /// arrive a second apart, so the other is already waiting (JobCompletionTests orders this by events).
    @Test func theOtherReadersOfTheRunStopWaitingOnceTheLastRowIsDone() async throws {
        let folder = try JobFolder(rows: 2, lock: false)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let outcome = try await run(
            [
                "run", "job.json", "--reader", "sim:ntag215?uid=04F50000000001&count=2&arrival=1000", "--reader",
                "sim:ntag215?uid=04F60000000001&arrival=86400000",
            ], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("job complete: remove the last tag"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("interrupt"), "\(outcome.stderr)")
        #expect(try folder.query("SELECT state, count(*) FROM records GROUP BY state") == [["done", "2"]])
    }

    /// A station was killed holding row 2: the other station ends with 75, naming the row and its holder.
    @Test func aStationWhoseRowsAreAllClaimedElsewhereEndsNamingThem() async throws {
        let folder = try strandedJob()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let outcome = try await run(
            ["run", "job.json", "--station", "s1", "--reader", "sim:ntag215?uid=04F30000000101"], in: folder)
        #expect(outcome.status == 75, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("row 2: s2, claimed"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("restart s2 or provision release --row 2"), "\(outcome.stderr)")
        #expect(try folder.query("SELECT count(*) FROM attempts WHERE reader LIKE 's1/%'") == [["0"]])
    }

    /// With `--wait` the station keeps waiting for work until it is stopped.
    @Test func withWaitTheStationWaitsForWorkUntilStopped() async throws {
        let folder = try strandedJob()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let process = try ProvisionProcess.start(
            [
                "run", "job.json", "--station", "s1", "--wait", "--reader",
                "sim:ntag215?uid=04F40000000101&arrival=1000",
            ],
            directory: folder.url)
        let log = folder.url.appendingPathComponent("background.err")
        // Waits on the notice the station prints when it starts waiting (bounded, not a timing assumption).
        var waiting = false
        for _ in 0..<600 where !waiting {
            waiting = (try? String(contentsOf: log, encoding: .utf8))?.contains("waiting for work (--wait)") == true
            if !waiting { try await Task.sleep(for: .milliseconds(100)) }
        }
        process.signal(SIGINT)
        let outcome = try await process.wait()
        #expect(waiting, "\(outcome.stderr)")
        #expect(outcome.status == 130, "stopped by the operator, not by itself: \(outcome.stderr)")
    }

    /// A two-row job whose row 1 is done and whose row 2 is claimed by station s2, which is gone.
    private func strandedJob() throws -> JobFolder {
        let folder = try JobFolder(rows: 2, lock: false)
        let first = try ProvisionProcess.run(
            ["run", "job.json", "--station", "s2", "--quiet", "--reader", "sim:ntag215?uid=04F30000000001&count=1"],
            directory: folder.url)
        #expect(first.status == 1, "one row remains: \(first.stderr)")
        _ = try folder.query(
            "UPDATE records SET state = 'claimed', uid = '04F3000000AA01', claimed_by = 's2/sim:ntag215', "
                + "claimed_at = '2026-01-06T10:00:00.000Z' WHERE row = 2")
        return folder
    }
}
