import TestSupport
import Testing

/// The randomised tests' seed is taken from PROVISION_TEST_SEED and replays the same draws.
struct TestSeedTests {
    @Test func theSeedComesFromTheEnvironmentWhenSet() {
        #expect(TestSeed.given(in: ["PROVISION_TEST_SEED": "4242"]) == 4242)
        #expect(TestSeed.given(in: [:]) == nil)
    }

    @Test func oneTestsDrawsRepeatAndDifferFromAnothersStream() {
        var first = TestSeed.generator(for: "a()")
        var again = TestSeed.generator(for: "a()")
        var other = TestSeed.generator(for: "b()")
        let draws = (0..<4).map { _ in first.next() }
        #expect((0..<4).map { _ in again.next() } == draws)
        #expect((0..<4).map { _ in other.next() } != draws)
    }
}
