import Foundation
import TestSupport
import Testing

@testable import Ledger

/// `acquirePublisherLock` on both stores: one holder a job at a time across connections, other jobs free, and the
/// lock free again once released.
@Suite struct PublisherLockTests {
    @Test(arguments: StoreKind.allCases) func oneConnectionAtATimeHoldsAJobsPublisherLock(_ kind: StoreKind)
        async throws
    {
        let store = try await TestStore.open(kind)
        let other = try await store.another()
        let held = try #require(try await store.ledger.acquirePublisherLock(job: "j"))
        #expect(held.job == "j")
        #expect(try await other.acquirePublisherLock(job: "j") == nil)
        let otherJob = try #require(try await other.acquirePublisherLock(job: "k"))
        await held.release()
        await held.release()  // a second release does nothing
        let taken = try #require(try await other.acquirePublisherLock(job: "j"))
        #expect(try await store.ledger.acquirePublisherLock(job: "j") == nil)
        await taken.release()
        await otherJob.release()
    }
}
