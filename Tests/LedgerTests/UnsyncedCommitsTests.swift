import Foundation
import Synchronization
import Testing

@testable import Ledger

/// `commitDurability()`: a ticket for every commit so far, finished by the sync that covers the last deferred one
/// and by nothing else (the line's commit observer waits on it).
@Suite struct UnsyncedCommitsTests {
    /// A deferred done commit's ticket stays open through a claim that writes nothing and finishes, once, with
    /// the next claim that writes (a synced commit syncs the whole WAL).
    @Test func aDeferredCommitsTicketFinishesWithTheNextSyncedCommitThatWrites() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Sample.ledger(at: folder.path(), rows: 2)
        let first = try #require(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1)))
        #expect(ledger.commitDurability().isDurable, "a synced claim is durable when it returns")
        try await ledger.markDone(
            job: "j", row: first.row, uid: Sample.uid(1), tag: Sample.tag(Sample.uid(1)),
            attempt: Sample.attempt(Sample.uid(1), row: first.row), durability: .deferred)
        let ticket = ledger.commitDurability()
        #expect(!ticket.isComplete)
        #expect(ledger.commitDurability() === ticket, "one ticket for the commits no sync has covered")
        let calls = Calls()
        ticket.whenComplete { calls.add($0) }
        await #expect(throws: LedgerError.self) { try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1)) }
        #expect(!ticket.isComplete, "a refused claim rolls back: nothing synced")
        _ = try #require(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(2)))
        #expect(ticket.isDurable)
        #expect(calls.results == [true])
        ticket.complete(.success(()))
        #expect(calls.results == [true], "told once")
    }

    /// `sync()` and `syncInBackground()` finish the ticket of the commits they sync.
    @Test func syncAndTheBackgroundSyncFinishTheTicket() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Sample.ledger(at: folder.path(), rows: 2)
        let first = try #require(
            try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1), durability: .deferred))
        let claimTicket = ledger.commitDurability()
        #expect(!claimTicket.isComplete)
        try await ledger.syncInBackground().wait()
        #expect(claimTicket.isDurable)
        try await ledger.markDone(
            job: "j", row: first.row, uid: Sample.uid(1), tag: Sample.tag(Sample.uid(1)),
            attempt: Sample.attempt(Sample.uid(1), row: first.row), durability: .deferred)
        let doneTicket = ledger.commitDurability()
        #expect(!doneTicket.isComplete && doneTicket !== claimTicket)
        try await ledger.sync()
        #expect(doneTicket.isDurable)
        #expect(ledger.commitDurability().isDurable)
    }

    /// A failed sync fails the ticket for good; the commits stay unsynced, and a later sync finishes a new ticket.
    @Test func aFailedSyncFailsItsTicketAndALaterSyncFinishesANewOne() {
        let unsynced = UnsyncedCommits()
        #expect(unsynced.ticket().isDurable)
        unsynced.committed()
        let first = unsynced.ticket()
        unsynced.synced(.failure(LedgerError(.sqlite, "disk I/O error while syncing the WAL", resultCode: .ioError)))
        #expect(first.isComplete && !first.isDurable)
        #expect(unsynced.count == 1)
        let second = unsynced.ticket()
        #expect(!second.isComplete && second !== first)
        unsynced.synced(.success(()))
        #expect(second.isDurable && !first.isDurable)
        #expect(unsynced.count == 0)
    }

    /// A sync covers the commits counted when it started, not one counted while it ran (a background sync runs off
    /// the ledger's queue while commits go on): that one's ticket waits for the next sync.
    @Test func aSyncCoversOnlyTheCommitsCountedWhenItStarted() {
        let unsynced = UnsyncedCommits()
        unsynced.committed()
        let early = unsynced.ticket()
        let started = unsynced.generation
        unsynced.committed()
        let late = unsynced.ticket()
        #expect(late !== early)
        unsynced.synced(.success(()), through: started)
        #expect(early.isDurable && !late.isComplete)
        #expect(unsynced.count == 1)
        unsynced.synced(.success(()))
        #expect(late.isDurable && unsynced.count == 0)
    }

    /// A background sync queued and not started yet is shared (it covers every commit made before it starts); once
    /// it starts, the next caller queues a new one.
    @Test func aQueuedBackgroundSyncIsSharedUntilItStarts() {
        let unsynced = UnsyncedCommits()
        var started: [DurabilityTicket] = []
        let first = unsynced.queueSync { started.append($0) }
        let second = unsynced.queueSync { started.append($0) }
        #expect(started.count == 1 && started[0] === first && second === first)
        unsynced.syncStarting()
        let third = unsynced.queueSync { started.append($0) }
        #expect(started.count == 2 && started[1] === third && third !== first)
    }

    /// `whenComplete` on a finished ticket runs at once, with its result.
    @Test func aFinishedTicketCallsBackAtOnce() {
        let calls = Calls()
        DurabilityTicket(completed: .success(())).whenComplete { calls.add($0) }
        DurabilityTicket(completed: .failure(LedgerError(.sqlite, "no"))).whenComplete { calls.add($0) }
        #expect(calls.results == [true, false])
    }
}

/// The results a ticket called back with (`true`: durable).
private final class Calls: Sendable {
    private let list = Mutex<[Bool]>([])
    func add(_ result: Result<Void, LedgerError>) {
        list.withLock {
            if case .success = result { $0.append(true) } else { $0.append(false) }
        }
    }
    var results: [Bool] { list.withLock { $0 } }
}
