import NFCTags
import Testing

/// A family registered at start-up joins `TagFamilies.standard` after the shipped ones, and the keyed schemes are
/// found by section and by a job's chips, so a family outside `NFCTags` needs no edit there.
@Suite struct TagFamiliesRegistryTests {
    /// A family that handles no tag, so registering it changes no detection elsewhere in the test run.
    struct InertFamily: TagFamily {
        let name: String
        var displayName: String
        var transport: Transport { .iso14443A }
        func handles(_ activation: DetectedTag) -> Bool { false }
        func open(_ transceiver: any Transceiver, activation: DetectedTag?) -> any FamilyTag {
            Type2Family().open(transceiver, activation: activation)
        }
    }

    @Test func aRegisteredFamilyFollowsTheShippedOnesAndReplacesItsNamesake() {
        // A registry of the test's own: the process's (`TagFamilies.standard`) stays as other tests expect it.
        let registry = TagFamilyRegistry()
        let name = "registry-test"
        registry.register(InertFamily(name: name, displayName: "first"))
        registry.register(InertFamily(name: name, displayName: "second"))
        let all = registry.all.families.map(\.name)
        #expect(all == TagFamilies.shipped.families.map(\.name) + [name])
        #expect(registry.all.named(name)?.displayName == "second")
        #expect(TagFamilies.standard.named(name) == nil)
    }

    @Test func theKeyedSchemeIsFoundBySectionAndByTheJobsChips() {
        let shipped = TagFamilies.shipped
        #expect(shipped.keyedScheme(section: "ntag424")?.chips == [Type4Family.ntag424])
        #expect(shipped.keyedScheme(section: "type4") == nil)
        #expect(shipped.keyedScheme(personalising: [Type4Family.ntag424])?.section == "ntag424")
        #expect(shipped.keyedScheme(personalising: []) == nil, "a family-wide job is not keyed")
        #expect(shipped.keyedScheme(personalising: [Type4Family.generic]) == nil)
        #expect(TagFamilies([Type2Family()]).keyedSchemes.isEmpty)
    }
}
