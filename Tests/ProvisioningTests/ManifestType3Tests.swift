import Foundation
import NFCTags
import Provisioning
import Testing

/// The manifest's Type 3 targets (`felica-lite-s`, `felica-standard`, `type3`): family, capacity, `{{uid}}`
/// digits, and what a FeliCa job refuses.
@Suite struct ManifestType3Tests {
    @Test func theTargetsAreType3AndSizedByNmaxB() throws {
        for tag in ["felica-lite-s", "felica-standard", "type3"] {
            let manifest = try ManifestType4Tests.parse(#", "lock": "permanent""#, tag: tag)
            #expect(manifest.tag.family == "type3" && manifest.tag.capacity == 208 && manifest.tag.uidHexDigits == 16)
            #expect(manifest.tag.families().families.map(\.name) == ["type3"])
        }
        #expect(TagTarget(manifestName: "felica-lite-s")?.acceptedChips == [Type3Family.liteS])
        #expect(TagTarget(manifestName: "ntag215")?.uidHexDigits == 14)
    }

    @Test(arguments: [
        (#", "protect": {"key": "k"}"#, "felica-lite-s", "applies only to Type 2 tags"),
        (#", "signature": "record""#, "type3", "a FeliCa tag has no originality signature"),
    ])
    func whatAFeliCaJobCannotDoIsRefused(extra: String, tag: String, expected: String) {
        let text = ManifestType4Tests.message(extra, tag: tag)
        #expect(text.contains(expected), "\(text)")
    }
}
