import Foundation
import TestSupport
import Testing

@testable import Ledger

/// A PostgreSQL station's ledger steps are one round trip each, through the station functions, and a deferred done
/// commit is durable once the next claim commits, as on SQLite (issue 43 item 3; docs/ledger.md, "Durability").
@Suite struct PostgresLedgerFunctionsTests {
    @Test func aClaimAndADoneCommitAreOneRoundTripEach() async throws {
        let store = try await Sample.store(.postgresql, rows: 3)
        let ledger = try #require(store.ledger as? PostgresLedger)
        for n in 1...2 {
            let uid = Sample.uid(n)
            var before = await ledger.roundTrips
            let claimed = try #require(
                try await ledger.claim(job: "j", reader: "r", uid: uid, durability: .deferred))
            #expect(try await trips(ledger, since: before) == 1, "claim \(n)")
            // A resumed claim (the tag came back) is one round trip too.
            before = await ledger.roundTrips
            let resumed = try #require(try await ledger.claim(job: "j", reader: "r2", uid: uid, durability: .deferred))
            #expect(resumed.resumed && resumed.row == claimed.row)
            #expect(try await trips(ledger, since: before) == 1, "resumed claim \(n)")
            before = await ledger.roundTrips
            let open = try await ledger.markDone(
                job: "j", row: claimed.row, uid: uid, tag: Sample.tag(uid), attempt: Sample.attempt(uid, row: 1),
                durability: .deferred)
            #expect(open)
            #expect(try await trips(ledger, since: before) == 1, "done \(n)")
        }
        #expect(try await store.rawQuery("SELECT count(*) FROM records WHERE state = 'done'") == [["2"]])
        #expect(try await store.rawQuery("SELECT count(*) FROM attempts WHERE outcome = 'done'") == [["2"]])
    }

    @Test func aDeferredDoneCommitIsDurableWithTheNextClaimOrASync() async throws {
        let store = try await Sample.store(.postgresql, rows: 3)
        let ledger = try #require(store.ledger as? PostgresLedger)
        let first = try #require(
            try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1), durability: .deferred))
        try await ledger.markDone(
            job: "j", row: first.row, uid: Sample.uid(1), tag: Sample.tag(Sample.uid(1)),
            attempt: Sample.attempt(Sample.uid(1), row: first.row), durability: .deferred)
        let pending = ledger.commitDurability()
        #expect(!pending.isComplete)
        #expect(await ledger.unsyncedCommitCount == 1)
        // The done call's `synchronous_commit = off` was its own transaction's: the session is back to `on`.
        #expect(try await ledger.rawQuery("SHOW synchronous_commit") == [["on"]])
        _ = try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(2), durability: .deferred)
        #expect(pending.isDurable)
        #expect(await ledger.unsyncedCommitCount == 0)
        // An immediate done commit is durable when it returns; a deferred one waits for `sync()`.
        try await ledger.markDone(
            job: "j", row: 2, uid: Sample.uid(2), tag: Sample.tag(Sample.uid(2)),
            attempt: Sample.attempt(Sample.uid(2), row: 2), durability: .immediate)
        #expect(ledger.commitDurability().isDurable)
        let third = try #require(
            try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(3), durability: .deferred))
        try await ledger.markDone(
            job: "j", row: third.row, uid: Sample.uid(3), tag: Sample.tag(Sample.uid(3)),
            attempt: Sample.attempt(Sample.uid(3), row: third.row), durability: .deferred)
        let last = ledger.commitDurability()
        #expect(!last.isComplete)
        let before = await ledger.roundTrips
        try await ledger.sync()
        #expect(last.isDurable)
        #expect(try await trips(ledger, since: before) == 1)
        try await ledger.sync()
        #expect(try await trips(ledger, since: before) == 1, "nothing left to sync: no round trip")
    }

    @Test func aDeferredDoneCommitCutOffByAReconnectionIsNotTakenForDurable() async throws {
        let store = try await Sample.store(.postgresql, rows: 2)
        let ledger = try #require(store.ledger as? PostgresLedger)
        let uid = Sample.uid(1)
        let claimed = try #require(try await ledger.claim(job: "j", reader: "r", uid: uid, durability: .deferred))
        try await ledger.markDone(
            job: "j", row: claimed.row, uid: uid, tag: Sample.tag(uid), attempt: Sample.attempt(uid, row: claimed.row),
            durability: .deferred)
        let cutOff = ledger.commitDurability()
        // A dropped connection: the server may have crashed before flushing the done commit.
        try await ledger.reconnect()
        #expect(cutOff.isComplete && !cutOff.isDurable)
        // The next claim's synchronous commit starts afresh: its own ticket is durable.
        _ = try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(2), durability: .deferred)
        #expect(ledger.commitDurability().isDurable)
        #expect(await ledger.unsyncedCommitCount == 0)
    }

    /// The round trips `ledger` made since it had made `before`.
    private func trips(_ ledger: PostgresLedger, since before: Int) async throws -> Int {
        await ledger.roundTrips - before
    }
}
