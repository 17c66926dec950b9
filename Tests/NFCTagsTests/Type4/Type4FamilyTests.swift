import NFCTags
import TestSupport
import Testing

/// Which tags the Type 4 family claims (`docs/reference/type4.md` §1.1): SAK bit 6, never together with Type 2.
@Suite struct Type4FamilyTests {
    @Test func sakBitSixIsType4() {
        let family = Type4Family()
        #expect(family.name == "type4")
        #expect(family.handles(DetectedTag(uid: [0x04], sak: 0x20)))
        #expect(family.handles(DetectedTag(uid: [0x04], sak: 0x28)))
        #expect(!family.handles(DetectedTag(uid: [0x04], sak: 0x00)))
        #expect(!family.handles(DetectedTag(uid: [0x04], sak: 0x08)))
    }

    @Test func type2AndType4NeverBothClaimATag() {
        for sak in UInt8.min...UInt8.max {
            let tag = DetectedTag(uid: [0x04], sak: sak)
            #expect(!(Type2Family().handles(tag) && Type4Family().handles(tag)), "SAK \(sak)")
        }
        let families = TagFamilies([Type2Family(), Type4Family()])
        #expect(families.family(for: DetectedTag(uid: [0x04], sak: 0x20))?.name == "type4")
        #expect(families.family(for: DetectedTag(uid: [0x04], sak: 0x00))?.name == "type2")
    }

    @Test func theJobsOptionsReachEveryOpenedTag() throws {
        let family = Type4Family(options: Type4Options(honoursCCWriteByte: true))
        let opened = family.open(ScriptedTransceiver([]), activation: DetectedTag(uid: [0x04], sak: 0x20))
        let tag = try #require(opened as? Type4FamilyTag)
        #expect(tag.options.honoursCCWriteByte && tag.family == "type4")
        #expect(
            (Type4Family().open(ScriptedTransceiver([]), activation: nil) as? Type4FamilyTag)?.options
                .honoursCCWriteByte == false)
    }
}
