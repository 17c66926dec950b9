import Foundation
import Support
import TestSupport
import Testing

@testable import Ledger

/// `TapLookupCache`: a SQLite ledger keeps a tapped tag's reads between batches, and drops them when anything they
/// read may have changed: a commit by another connection (`PRAGMA data_version`) or a write of its own other than a
/// tap's counter.
@Suite struct TapLookupCacheTests {
    static let uid: [UInt8] = [0x04, 0x24, 0x26, 0, 0, 0, 1]
    static let pass: @Sendable (TapLookup) -> Bool = { _ in true }

    /// A done tag in job `j` and its first tap accepted (so its lookup is kept).
    static func tappedLedger() async throws -> (TestStore, Ledger) {
        let store = try await Sample.store(.sqlite, rows: 2)
        let ledger = try #require(store.ledger as? Ledger)
        try await ledger.markKeyedTagDone(job: "j", uid: uid)
        _ = try await ledger.acceptTap(job: "j", uid: uid, counter: 1, at: Date(), check: pass)
        return (store, ledger)
    }

    /// A change of key 2 to version 2, resolved done, through `ledger`.
    static func changeKey2(_ ledger: any LedgerStore) async throws {
        let change = KeyChange(
            uid: uid, keyNumber: 2, oldVersion: 1, newVersion: 2, keyID: "brand.K2", oldFingerprint: "fp2",
            newFingerprint: "fp2b")
        try await ledger.intendKeyChange(job: "j", change)
        try await ledger.resolveKeyChange(job: "j", uid: uid, keyNumber: 2, as: .done)
    }

    static func keyVersions(_ acceptance: TapAcceptance) -> [Int: Int]? {
        if case .counted(let lookup, .accepted) = acceptance { lookup.keyVersions } else { nil }
    }

    @Test func aTagTappedAgainIsNotReadAgain() async throws {
        let (_, ledger) = try await Self.tappedLedger()
        let hits = await ledger.tapLookupHits
        let first = try await ledger.tapLookup(job: "j", uid: Self.uid)
        for counter in 2...4 {
            let answer = try await ledger.acceptTap(
                job: "j", uid: Self.uid, counter: counter, at: Date(), check: Self.pass)
            #expect(answer == .counted(try #require(first), .accepted(previous: counter - 1)))
        }
        #expect(await ledger.tapLookupHits == hits + 3, "the counters it wrote kept the lookup")
    }

    @Test func anotherConnectionsCommitIsSeen() async throws {
        let (store, ledger) = try await Self.tappedLedger()
        try await Self.changeKey2(try await store.another())
        let hits = await ledger.tapLookupHits
        let answer = try await ledger.acceptTap(job: "j", uid: Self.uid, counter: 2, at: Date(), check: Self.pass)
        #expect(Self.keyVersions(answer)?[2] == 2, "\(answer)")
        #expect(await ledger.tapLookupHits == hits, "read again")
    }

    @Test func itsOwnOtherWritesAreSeen() async throws {
        let (_, ledger) = try await Self.tappedLedger()
        try await Self.changeKey2(ledger)
        let answer = try await ledger.acceptTap(job: "j", uid: Self.uid, counter: 2, at: Date(), check: Self.pass)
        #expect(Self.keyVersions(answer)?[2] == 2, "\(answer)")
    }

    @Test func aTagNoLongerDoneIsUnknown() async throws {
        let (store, ledger) = try await Self.tappedLedger()
        let other = try #require(try await store.another() as? Ledger)
        try await other.rawExecute("UPDATE records SET state = 'burned' WHERE uid = '\(LedgerFormat.uid(Self.uid))'")
        let answer = try await ledger.acceptTap(job: "j", uid: Self.uid, counter: 2, at: Date(), check: Self.pass)
        #expect(answer == .unknown)
    }

    @Test func entriesHoldOnlyAtTheirVersionAndChangeCount() throws {
        var cache = TapLookupCache()
        let key = TapLookupCache.Key(job: "j", uid: Self.uid)
        let lookup = TapLookup(
            tag: ProvisionedTag(
                job: "j", row: 1,
                tag: TagRecord(
                    uid: Self.uid, chip: "ntag424", bytesSHA256: [], byteCount: 0, locked: true, writtenAt: Date(),
                    family: "type4"),
                recordedAt: Date()),
            fields: ["sku": "A"], keyVersions: [:])
        #expect(cache.lookup(key, version: 1, changes: 10) == nil)
        cache.store(lookup, for: key)
        #expect(cache.lookup(key, version: 1, changes: 10) == lookup)
        cache.countersWritten(from: 10, to: 11)
        #expect(cache.lookup(key, version: 1, changes: 11) == lookup, "a counter moved the change count along")
        cache.countersWritten(from: 10, to: 12)
        #expect(cache.lookup(key, version: 1, changes: 12) == nil, "another write came between: dropped")
        cache.store(lookup, for: key)
        #expect(cache.lookup(key, version: 2, changes: 12) == nil, "another connection committed: dropped")
        #expect(cache.lookup(key, version: 2, changes: 12) == nil, "and not kept")
        #expect(cache.hits == 2)
    }
}
