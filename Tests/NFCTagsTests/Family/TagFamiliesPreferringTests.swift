import NFCTags
import TestSupport
import Testing

/// `TagFamilies.preferring`: a job's families decide first, every other family still recognises its tags.
@Suite struct TagFamiliesPreferringTests {
    @Test func theJobsFamiliesComeFirstAndNoneIsListedTwice() {
        let job = TagFamilies.standard.only(Type5Family.name)
        let ordered = TagFamilies.standard.preferring(job).families.map(\.name)
        #expect(ordered.first == Type5Family.name)
        #expect(ordered.count == TagFamilies.standard.families.count, "\(ordered)")
        #expect(Set(ordered) == Set(TagFamilies.standard.families.map(\.name)))
    }

    @Test func aTagTwoFamiliesCouldTakeGoesToThePreferredOne() {
        // The memory family's SAK 77h has bit 20h set, so Type 4's rule takes it too: first match wins.
        let families = TagFamilies([Type4Family(), MemoryFamily()])
        let memoryTag = DetectedTag(uid: [0x02, 0x4D, 0x45, 0x4D, 0, 0, 1], atqa: 0x0044, sak: MemoryFamily.sak)
        #expect(families.family(for: memoryTag)?.name == Type4Family.name)
        let preferred = families.preferring(TagFamilies([MemoryFamily()]))
        #expect(preferred.family(for: memoryTag)?.name == MemoryFamily().name)
        #expect(preferred.families.map(\.name) == [MemoryFamily().name, Type4Family.name])
    }
}
