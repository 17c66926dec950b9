import TagEmulator

/// The seeded generator of randomized tests (the emulator's SplitMix64), so a sweep repeats exactly.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var base: SplitMix64

    public init(seed: UInt64) { base = SplitMix64(seed: seed) }

    public mutating func next() -> UInt64 { base.next() }
}
