import Synchronization
import Testing

@testable import HTTPService

@Suite struct RateLimiterTests {
    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        let time = Mutex<Duration>(.zero)
        func set(_ value: Duration) { time.withLock { $0 = value } }
        var read: @Sendable () -> Duration { { self.time.withLock { $0 } } }
    }

    @Test func aBurstIsGrantedThenTheWaitIsRoundedUpToWholeSeconds() {
        let clock = ManualClock()
        let limiter = RateLimiter(policy: .init(perSecond: 4, burst: 3), now: clock.read)
        #expect((0..<3).map { _ in limiter.take("a") } == [nil, nil, nil])
        #expect(limiter.take("a") == 1)  // a quarter second away, answered as 1
        #expect(limiter.take("b") == nil)  // buckets are per client
        clock.set(.milliseconds(250))
        #expect(limiter.take("a") == nil)
        #expect(limiter.take("a") == 1)
        let slow = RateLimiter(policy: .init(perSecond: 0.2, burst: 1), now: clock.read)
        #expect(slow.take("a") == nil)
        #expect(slow.take("a") == 5)
    }

    @Test func refilledBucketsAreDroppedOnceTheTableIsFull() {
        let clock = ManualClock()
        let limiter = RateLimiter(policy: .init(perSecond: 1, burst: 2), maxClients: 3, now: clock.read)
        for client in ["a", "b", "c"] { _ = limiter.take(client) }
        _ = limiter.take("d")  // none refilled yet: all kept
        #expect(limiter.trackedClients == 4)
        clock.set(.seconds(1))
        _ = limiter.take("e")  // each is back to 2 tokens: dropped
        #expect(limiter.trackedClients == 1)
        _ = limiter.take("a")  // a dropped client starts again with a full bucket
        #expect(limiter.take("a") == nil)
        #expect(limiter.take("a") == 1)
    }
}
