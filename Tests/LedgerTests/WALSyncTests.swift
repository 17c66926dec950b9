import Dispatch
import Foundation
import Support
import Testing

@testable import Ledger

/// SQLite's background sync runs off the ledger's queue, and `checkpointInBackground` moves checkpoints to a second
/// connection (what `serve` sets up, so a tap's answer never waits out a checkpoint).
@Suite struct WALSyncTests {
    /// With the ledger's queue held busy, a deferred commit's background sync still finishes: it does not run there
    /// (after the first, which goes through SQLite's own sync on the queue).
    @Test(.timeLimit(.minutes(1))) func theBackgroundSyncFinishesWhileTheLedgersQueueIsBusy() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Sample.ledger(at: folder.path(), rows: 2)
        _ = try #require(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1), durability: .deferred))
        try await ledger.syncInBackground().wait()
        _ = try #require(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(2), durability: .deferred))
        let commit = ledger.commitDurability()
        #expect(!commit.isComplete)
        let release = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        ledger.executor.async {
            holding.signal()
            release.wait()
        }
        holding.wait()
        defer { release.signal() }
        try await ledger.syncInBackground().wait()
        #expect(commit.isDurable && ledger.commitDurability().isDurable)
    }

    /// After `checkpointInBackground` the connection never checkpoints itself, yet the database file takes the
    /// WAL's pages: the second connection copied them.
    @Test(.timeLimit(.minutes(1))) func checkpointsMoveToABackgroundConnection() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Sample.ledger(at: folder.path(), rows: 1)
        try await ledger.checkpointInBackground(every: .milliseconds(20))
        #expect(try await ledger.autocheckpointPages() == 0, "the connection leaves checkpoints to the background one")
        let before = try fileSize(folder.path())
        for n in 1...400 {
            _ = try await ledger.acceptSUNCounter(job: "j", uid: Sample.uid(n), counter: 1)
        }
        // 400 counter rows need new pages; only a checkpoint puts them in the database file.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        while try fileSize(folder.path()) <= before && clock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try fileSize(folder.path()) > before, "no checkpoint reached the database file")
    }

    private func fileSize(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
}
