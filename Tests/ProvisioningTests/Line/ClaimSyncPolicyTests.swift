import Testing

@testable import Provisioning

/// When the line runs a claim's sync under identify (`ClaimSyncPolicy`).
@Suite struct ClaimSyncPolicyTests {
    @Test func theFirstTagSyncsItsClaimAtOnce() {
        #expect(!ClaimSyncPolicy().overlaps)
        let policy = ClaimSyncPolicy()
        policy.record(identifyMicroseconds: 6_000, syncMicroseconds: nil)
        #expect(!policy.overlaps, "no sync measured yet")
    }

    @Test func overlapsOnlyWhileIdentifyTakesLongerThanTheSync() {
        let policy = ClaimSyncPolicy()
        policy.record(identifyMicroseconds: 6_000, syncMicroseconds: 900)  // a datasheet-timed or real reader
        #expect(policy.overlaps)
        policy.record(identifyMicroseconds: 30, syncMicroseconds: 150)  // an instant simulator
        #expect(!policy.overlaps)
        policy.record(identifyMicroseconds: 5_000, syncMicroseconds: nil)  // no write waited: sync kept
        #expect(policy.overlaps)
    }

    @Test func anInjectedSyncCostReplacesTheMeasuredOneAndIdentifyStillDecides() {
        let policy = ClaimSyncPolicy(syncMicroseconds: 500)
        policy.record(identifyMicroseconds: 6_000, syncMicroseconds: 90_000)  // a machine whose fsync is slow
        #expect(policy.overlaps)
        policy.record(identifyMicroseconds: 30, syncMicroseconds: 1)  // an instant simulator on a fast disk
        #expect(!policy.overlaps)
        let first = ClaimSyncPolicy(syncMicroseconds: 500)
        first.record(identifyMicroseconds: 6_000, syncMicroseconds: nil)
        #expect(!first.overlaps, "no sync measured yet: the first tag still syncs at once")
    }

    @Test func aFixedPolicyIgnoresTheMeasurements() {
        let always = ClaimSyncPolicy(fixed: true)
        let never = ClaimSyncPolicy(fixed: false)
        for policy in [always, never] { policy.record(identifyMicroseconds: 30, syncMicroseconds: 150) }
        #expect(always.overlaps && !never.overlaps)
        never.record(identifyMicroseconds: 6_000, syncMicroseconds: 900)
        #expect(!never.overlaps)
    }
}
