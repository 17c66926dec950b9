import TagEmulator
import Testing

/// The reference SplitMix64 (Steele, Lea and Flood; Vigna's splitmix64.c) from seed 0, so a seeded fault
/// run means the same sequence everywhere.
@Test func seedZeroGivesTheReferenceFirstOutput() {
    var generator = SplitMix64(seed: 0)
    #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
}

@Test func equalSeedsGiveEqualSequencesAndCopiesFork() {
    var first = SplitMix64(seed: 42)
    var second = SplitMix64(seed: 42)
    let sequence = (0..<5).map { _ in first.next() }
    #expect(sequence == (0..<5).map { _ in second.next() })
    var copy = first
    #expect(copy.next() == first.next())
    #expect(SplitMix64(seed: 43) != SplitMix64(seed: 42))
}

@Test func chanceIsNeverForZeroAndAlwaysForOne() {
    var generator = SplitMix64(seed: 7)
    #expect((0..<100).allSatisfy { _ in !generator.chance(0) })
    #expect((0..<100).allSatisfy { _ in generator.chance(1) })
}
