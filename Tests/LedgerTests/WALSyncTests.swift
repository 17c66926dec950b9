import Dispatch
import Foundation
import Support
import TestSupport
import Testing

@testable import Ledger

/// SQLite's background sync runs off the ledger's queue, and `checkpointInBackground` moves checkpoints to a second
/// connection (what `serve` sets up, so a tap's answer never waits out a checkpoint).
@Suite struct WALSyncTests {
    /// With the ledger's queue held busy, a deferred commit's background sync still finishes: it does not run there
    /// (after the first, which goes through SQLite's own sync on the queue).
    @Test(.timeLimit(.minutes(5))) func theBackgroundSyncFinishesWhileTheLedgersQueueIsBusy() async throws {
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

    /// A background sync with no deferred commit waiting flushes nothing and counts no sync.
    @Test(.timeLimit(.minutes(5))) func aBackgroundSyncWithNothingWaitingCountsNoSync() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Sample.ledger(at: folder.path(), rows: 2)
        _ = try #require(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1), durability: .deferred))
        let before = ledger.syncCount
        try await ledger.syncInBackground().wait()
        #expect(ledger.syncCount == before + 1)
        try await ledger.syncInBackground().wait()
        #expect(ledger.syncCount == before + 1, "nothing was waiting for the second sync")
    }

    /// After `checkpointInBackground` the connection never checkpoints itself, yet the database file takes the
    /// WAL's pages: the second connection copied them. The wait runs off the cooperative pool (a loaded test run
    /// keeps it busy), as the checkpoints do.
    @Test(.timeLimit(.minutes(5))) func checkpointsMoveToABackgroundConnection() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Sample.ledger(at: folder.path(), rows: 1)
        try await ledger.checkpointInBackground(every: .milliseconds(20))
        #expect(try await ledger.autocheckpointPages() == 0, "the connection leaves checkpoints to the background one")
        let path = folder.path()
        let before = try Self.fileSize(path)
        // 3,000 rows need new pages; only a checkpoint puts them in the database file.
        try await ledger.addRows(job: "j", rows: Sample.rows(2...3001))
        let grew = try await onThread { () throws -> Bool in
            let deadline = ContinuousClock.now.advanced(by: .seconds(60))
            while try Self.fileSize(path) <= before && ContinuousClock.now < deadline { usleep(20_000) }
            return try Self.fileSize(path) > before
        }
        #expect(grew, "no checkpoint reached the database file in 60 s")
        withExtendedLifetime(ledger) {}
    }

    private static func fileSize(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
}
