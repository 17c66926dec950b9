/// SplitMix64: a small seeded generator so fault runs repeat exactly for a given seed.
///
/// Not for cryptography. Value type: copying it forks the sequence.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `true` with probability `p` (0…1).
    public mutating func chance(_ p: Double) -> Bool {
        guard p > 0 else { return false }
        return Double(next() >> 11) / Double(1 << 53) < p
    }
}
