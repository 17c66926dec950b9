import Foundation
import Testing

@testable import Ledger

/// `markDone(durability: .deferred)`: committed at once, synced by the next writing commit or `sync()`.
@Suite struct LedgerDurabilityTests {
    @Test func deferredDoneIsCommittedAndSyncedByTheNextClaim() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Sample.ledger(at: folder.path(), rows: 3)
        let first = try #require(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1)))
        #expect(await ledger.unsyncedCommitCount == 0)
        try await ledger.markDone(
            job: "j", row: first.row, uid: Sample.uid(1), tag: Sample.tag(Sample.uid(1)),
            attempt: Sample.attempt(Sample.uid(1), row: first.row), durability: .deferred)
        #expect(await ledger.unsyncedCommitCount == 1)
        #expect(try await ledger.settings().synchronous == 2, "back to FULL after the deferred commit")
        // Committed: another connection sees the row done before any sync.
        let reader = try await Ledger.open(path: folder.path(), readOnly: true)
        #expect(try await reader.record(job: "j", row: first.row)?.state == .done)
        // The next claim writes and syncs the WAL: the done commit is durable with it.
        _ = try #require(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(2)))
        #expect(await ledger.unsyncedCommitCount == 0)
    }

    @Test func aClaimThatWritesNothingDoesNotCountAsASync() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Sample.ledger(at: folder.path(), rows: 1)
        let only = try #require(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1)))
        try await ledger.markDone(
            job: "j", row: only.row, uid: Sample.uid(1), tag: Sample.tag(Sample.uid(1)),
            attempt: Sample.attempt(Sample.uid(1), row: only.row), durability: .deferred)
        #expect(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(2)) == nil)
        #expect(await ledger.unsyncedCommitCount == 1, "no row claimed: nothing was written or synced")
        await #expect(throws: LedgerError.self) { try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1)) }
        #expect(await ledger.unsyncedCommitCount == 1, "a refused claim rolls back")
        #expect(await ledger.journalIsOpen, "sync() reaches the WAL's xSync")
        try await ledger.sync()
        #expect(await ledger.unsyncedCommitCount == 0)
        try await ledger.sync()
    }

    @Test func aFailedDeferredCommitRestoresFullAndCountsNothing() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Sample.ledger(at: folder.path(), rows: 2)
        let claimed = try #require(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1)))
        await #expect(throws: LedgerError.self) {
            try await ledger.markDone(
                job: "j", row: claimed.row, uid: Sample.uid(7), tag: Sample.tag(Sample.uid(7)),
                attempt: Sample.attempt(Sample.uid(7), row: claimed.row), durability: .deferred)
        }
        #expect(await ledger.unsyncedCommitCount == 0)
        #expect(try await ledger.settings().synchronous == 2)
        #expect(try await ledger.record(job: "j", row: claimed.row)?.state == .claimed)
    }

    /// A deferred claim is committed at once; `syncInBackground()` syncs it (and an earlier deferred done)
    /// on the ledger's queue and says when, without a task hop.
    @Test func aDeferredClaimIsSyncedInTheBackground() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Sample.ledger(at: folder.path(), rows: 3)
        let first = try #require(
            try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1), durability: .deferred))
        #expect(await ledger.unsyncedCommitCount == 1)
        #expect(try await ledger.settings().synchronous == 2, "back to FULL after the deferred claim")
        try await ledger.markDone(
            job: "j", row: first.row, uid: Sample.uid(1), tag: Sample.tag(Sample.uid(1)),
            attempt: Sample.attempt(Sample.uid(1), row: first.row), durability: .deferred)
        let second = try #require(
            try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(2), durability: .deferred))
        #expect(second.row == 2)
        #expect(await ledger.unsyncedCommitCount == 3)
        let ticket = ledger.syncInBackground()
        try await ticket.wait()
        #expect(ticket.isComplete)
        #expect((ticket.syncDuration ?? .seconds(-1)) >= .zero)
        #expect(await ledger.unsyncedCommitCount == 0)
        // Nothing left to sync: the ticket finishes without a sync.
        let idle = ledger.syncInBackground()
        try await idle.wait()
        #expect(await ledger.unsyncedCommitCount == 0)
        // A deferred claim that finds no row wrote nothing and counts nothing.
        _ = try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(3), durability: .deferred)
        #expect(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(4), durability: .deferred) == nil)
        #expect(await ledger.unsyncedCommitCount == 1)
    }

    /// The pragma is prepared afresh each time: SQLite applies it while compiling, so a cached statement
    /// stepped again would not be guaranteed to switch back and forth.
    @Test func synchronousSwitchesEveryTime() throws {
        let folder = try TemporaryFolder()
        let connection = try SQLiteConnection(path: folder.path(), readOnly: false, busyTimeoutMilliseconds: 100)
        try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL")
        for _ in 0..<3 {
            try connection.setSynchronous(.normal)
            #expect(connection.synchronous == 1)
            try connection.setSynchronous(.full)
            #expect(connection.synchronous == 2)
        }
    }
}
