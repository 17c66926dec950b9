import Foundation
import Ledger
import TestSupport
import Testing

@Test(arguments: StoreKind.allCases) func countersAreAcceptedOnlyWhenTheyRise(_ kind: StoreKind) async throws {
    let store = try await TestStore.open(kind)
    let ledger = store.ledger
    let uid: [UInt8] = [0x04, 1, 2, 3, 4, 5, 6]
    #expect(try await ledger.lastSeenCounter(job: "j", uid: uid) == nil)
    #expect(try await ledger.acceptCounter(job: "j", uid: uid, counter: 3, window: 10) == .accepted)
    #expect(try await ledger.acceptCounter(job: "j", uid: uid, counter: 3, window: 10) == .replayed(last: 3))
    #expect(try await ledger.acceptCounter(job: "j", uid: uid, counter: 2, window: 10) == .replayed(last: 3))
    #expect(try await ledger.lastSeenCounter(job: "j", uid: uid) == 3)
    #expect(try await ledger.acceptCounter(job: "j", uid: uid, counter: 4, window: 10) == .accepted)
    #expect(try await ledger.acceptCounter(job: "other", uid: uid, counter: 1, window: 10) == .accepted)
    #expect(try await ledger.lastSeenCounter(job: "j", uid: uid) == 4)
}

@Test(arguments: StoreKind.allCases) func aCounterJumpBeyondTheWindowIsImplausibleAndNotStored(_ kind: StoreKind)
    async throws
{
    let store = try await TestStore.open(kind)
    let ledger = store.ledger
    let uid: [UInt8] = [0x04, 1, 2, 3, 4, 5, 6]
    // A new UID counts from 0: a first tap showing FFFFFF is a forgery, not a high-water mark.
    #expect(
        try await ledger.acceptCounter(job: "j", uid: uid, counter: 0xFF_FFFF, window: 1000) == .implausible(last: 0))
    #expect(try await ledger.lastSeenCounter(job: "j", uid: uid) == nil)
    #expect(try await ledger.acceptCounter(job: "j", uid: uid, counter: 1000, window: 1000) == .accepted)
    #expect(try await ledger.acceptCounter(job: "j", uid: uid, counter: 2001, window: 1000) == .implausible(last: 1000))
    #expect(try await ledger.acceptCounter(job: "j", uid: uid, counter: 2000, window: 1000) == .accepted)
    #expect(try await ledger.lastSeenCounter(job: "j", uid: uid) == 2000)
}
