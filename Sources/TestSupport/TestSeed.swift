import Foundation

/// The one seed of a test process's randomised tests, so any failure they find replays exactly.
///
/// It is `PROVISION_TEST_SEED` when set, else drawn once per process; either way it is printed once as
/// `seed N (replay with PROVISION_TEST_SEED=N)`, the line `scripts/test_rerun.py` reads to rerun a failed test with
/// the seed it failed with. Every randomised test draws from `generator(for:)` (or passes `value` on), never from
/// the system generator.
public enum TestSeed {
    /// The process's seed: `PROVISION_TEST_SEED`, or a fresh one; printed the first time it is read.
    public static let value: UInt64 = {
        let seed = given(in: ProcessInfo.processInfo.environment) ?? UInt64.random(in: 1...1_000_000_000)
        print("seed \(seed) (replay with PROVISION_TEST_SEED=\(seed))")
        return seed
    }()

    /// The seed `environment` gives in PROVISION_TEST_SEED, nil when unset; a value that is not a decimal
    /// UInt64 stops the process, since a replay that silently draws another seed would replay nothing.
    public static func given(in environment: [String: String]) -> UInt64? {
        guard let text = environment["PROVISION_TEST_SEED"] else { return nil }
        guard let seed = UInt64(text) else { fatalError("PROVISION_TEST_SEED=\(text) is not a decimal UInt64") }
        return seed
    }

    /// A generator for one test, from the process seed and the test's name: tests running in parallel never
    /// share a stream, so what one test draws does not depend on the others.
    public static func generator(for test: String = #function) -> SeededGenerator {
        // FNV-1a of the name: Swift's Hasher is seeded differently in every process, so it cannot replay.
        let salt = test.utf8.reduce(UInt64(0xCBF2_9CE4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
        return SeededGenerator(seed: value ^ salt)
    }
}
