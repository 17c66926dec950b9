import Support
import Synchronization

/// A token bucket per client: `burst` requests at once, refilled at `perSecond`; shared by all worker threads.
///
/// The clock is injected (`now`: time since any fixed origin) so tests decide when tokens come back. Buckets
/// that have refilled completely are dropped once `maxClients` are tracked, so memory stays bounded.
public final class RateLimiter: Sendable {
    /// The bucket's shape.
    public struct Policy: Sendable, Equatable {
        /// Tokens added per second.
        public var perSecond: Double
        /// Bucket size: the requests a quiet client may send at once.
        public var burst: Double

        public init(perSecond: Double, burst: Double) {
            self.perSecond = perSecond
            self.burst = burst
        }

        /// 50 requests a second, bursts of 100.
        public static let standard = Policy(perSecond: 50, burst: 100)
    }

    private struct Bucket {
        var tokens: Double
        var updated: Duration
    }

    private let policy: Policy
    private let maxClients: Int
    private let now: @Sendable () -> Duration
    private let buckets = Mutex<[String: Bucket]>([:])

    /// A limiter on the monotonic clock.
    public convenience init(policy: Policy, maxClients: Int = 10_000) {
        let clock = ContinuousClock()
        let origin = clock.now
        self.init(policy: policy, maxClients: maxClients) { origin.duration(to: clock.now) }
    }

    /// A limiter on an injected clock.
    public init(policy: Policy, maxClients: Int = 10_000, now: @escaping @Sendable () -> Duration) {
        self.policy = policy
        self.maxClients = maxClients
        self.now = now
    }

    /// Takes one token for `client`: `nil` when granted, else the whole seconds (≥ 1) until one is back.
    public func take(_ client: String) -> Int? {
        let time = now()
        return buckets.withLock { buckets in
            var bucket = buckets[client] ?? Bucket(tokens: policy.burst, updated: time)
            bucket.tokens = min(policy.burst, bucket.tokens + policy.perSecond * (time - bucket.updated).seconds)
            bucket.updated = time
            defer {
                if buckets.count >= maxClients && buckets[client] == nil { prune(&buckets, at: time) }
                buckets[client] = bucket
            }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            guard policy.perSecond > 0 else { return Int.max }
            return max(1, Int(((1 - bucket.tokens) / policy.perSecond).rounded(.up)))
        }
    }

    /// How many clients have a bucket now.
    var trackedClients: Int { buckets.withLock { $0.count } }

    private func prune(_ buckets: inout [String: Bucket], at time: Duration) {
        buckets = buckets.filter {
            $0.value.tokens + policy.perSecond * (time - $0.value.updated).seconds < policy.burst
        }
    }
}
