import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Ledger

/// `acceptTap`: a keyed tap's read, the caller's check and its counter in one visit to the store; taps waiting
/// meanwhile share the visit's transaction and sync (`QueueBatch`).
@Suite struct LedgerTapAcceptanceTests {
    static func uid(_ n: Int) -> [UInt8] { [0x04, 0x24, 0x26, 0, 0, UInt8(n >> 8), UInt8(n & 0xFF)] }

    @Test(arguments: StoreKind.allCases) func unknownRefusedAcceptedAndReplayedTaps(_ kind: StoreKind) async throws {
        let ledger = try await Sample.store(kind, rows: 3).ledger
        let pass: @Sendable (TapLookup) -> Bool = { _ in true }
        #expect(try await ledger.acceptTap(job: "j", uid: Self.uid(1), counter: 4, at: Date(), check: pass) == .unknown)
        try await ledger.markKeyedTagDone(job: "j", uid: Self.uid(1))
        let lookup = try #require(try await ledger.tapLookup(job: "j", uid: Self.uid(1)))
        let seen = Mutex<TapLookup?>(nil)
        let refuse: @Sendable (TapLookup) -> Bool = { found in
            seen.withLock { $0 = found }
            return false
        }
        #expect(
            try await ledger.acceptTap(job: "j", uid: Self.uid(1), counter: 4, at: Date(), check: refuse)
                == .refused(lookup))
        #expect(seen.withLock { $0 } == lookup, "the check saw the tag's read")
        #expect(try await ledger.highestSUNCounter(job: "j", uid: Self.uid(1)) == nil, "a refused tap records nothing")
        let before = ledger.syncCount
        #expect(
            try await ledger.acceptTap(job: "j", uid: Self.uid(1), counter: 4, at: Date(), check: pass)
                == .counted(lookup, .accepted(previous: nil)))
        #expect(ledger.syncCount == before + 1 && ledger.commitDurability().isDurable, "durable before the answer")
        #expect(
            try await ledger.acceptTap(job: "j", uid: Self.uid(1), counter: 4, at: Date(), check: pass)
                == .counted(lookup, .replayed(highest: 4)))
        #expect(ledger.syncCount == before + 1, "a replayed tap waits for no sync")
        await #expect(throws: LedgerError(.invalidData, "")) {
            try await ledger.acceptTap(job: "j", uid: Self.uid(1), counter: 1 << 24, at: Date(), check: pass)
        }
    }

    /// Many taps at once through the callback form (as `serve`'s worker threads call it): each answered once, every
    /// counter recorded, in fewer transactions' syncs than taps.
    @Test(arguments: StoreKind.allCases) func concurrentTapsShareBatchesAndSyncs(_ kind: StoreKind) async throws {
        let count = 48
        let ledger = try await Sample.store(kind, rows: count).ledger
        for n in 1...count { try await ledger.markKeyedTagDone(job: "j", uid: Self.uid(n)) }
        let before = ledger.syncCount
        let outcomes = await withTaskGroup(of: TapAcceptance?.self) { group in
            for n in 1...count {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        ledger.acceptTap(job: "j", uid: Self.uid(n), counter: n, at: Date(), check: { _ in true }) {
                            continuation.resume(returning: try? $0.get())
                        }
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let accepted = outcomes.filter { if case .counted(_, .accepted(nil)) = $0 { true } else { false } }
        #expect(accepted.count == count)
        for n in [1, count / 2, count] {
            #expect(try await ledger.highestSUNCounter(job: "j", uid: Self.uid(n)) == n)
        }
        let syncs = ledger.syncCount - before
        #expect(syncs >= 1 && syncs < count, "\(syncs) syncs for \(count) taps")
        print("acceptTap (\(kind)): \(count) taps at once, \(syncs) syncs")
    }
}
