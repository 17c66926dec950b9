import Foundation
import TestSupport
import Testing

@testable import Ledger

/// `tapLookup`: in one call, what `tags(uid:)`, `record(job:row:)` and `keyVersions(job:uid:)` say about a done
/// tag of the job, and `nil` for a UID that is no done tag of it.
@Suite struct LedgerTapLookupTests {
    static let uid: [UInt8] = [0x04, 0x24, 0x24, 0, 0, 0, 9]

    @Test(arguments: StoreKind.allCases) func oneCallReadsWhatTheThreeReadsSay(_ kind: StoreKind) async throws {
        let store = try await Sample.store(kind, rows: 3)
        let ledger = store.ledger
        #expect(try await ledger.tapLookup(job: "j", uid: Self.uid) == nil, "not claimed yet")
        try await ledger.markKeyedTagDone(job: "j", uid: Self.uid, abandoned: [3])
        let lookup = try #require(try await ledger.tapLookup(job: "j", uid: Self.uid))
        let tag = try #require(try await ledger.tags(uid: Self.uid).first { $0.job == "j" })
        #expect(lookup.tag == tag)
        #expect(lookup.fields == (try await ledger.record(job: "j", row: tag.row)?.fields ?? [:]))
        #expect(!lookup.fields.isEmpty)
        #expect(lookup.keyVersions == (try await ledger.keyVersions(job: "j", uid: Self.uid)))
        #expect(lookup.keyVersions == [0: 1, 1: 1, 2: 1, 4: 1], "K3's change was abandoned")
        #expect(try await ledger.tapLookup(job: "other", uid: Self.uid) == nil, "a done tag of another job only")
        #expect(try await ledger.tapLookup(job: "j", uid: [0x04, 0, 0, 0, 0, 0, 1]) == nil)
    }
}
