import Foundation
import NFCTags
import Provisioning
import TestSupport
import Testing

/// Issue 41 item 2: `tag` is a look-up over the families' descriptors; the valid names, the messages that name
/// chips and docs/manifest.md's chip tables are generated from them, and a test fails when they disagree.
@Suite struct TagTargetTests {
    /// The sixteen manifest names accepted before targets became descriptors, in their order.
    static let names = [
        "ntag213", "ntag215", "ntag216", "ultralight-ev1", "mf0ul11", "mf0ul21", "type2", "ntag424", "type4",
        "icode-slix", "icode-slix2", "st25tv02k", "type5", "felica-lite-s", "felica-standard", "type3",
    ]

    @Test func theManifestNamesAreKeptAndLookedUp() throws {
        #expect(TagTarget.allCases.map(\.rawValue) == Self.names)
        #expect(TagTarget.all == TagTarget.allCases)
        for name in Self.names {
            let target = try #require(TagTarget(manifestName: name))
            #expect(target.rawValue == name && target.description == name && TagTarget(rawValue: name) == target)
            #expect(target.families().families.map(\.name) == [target.family])
        }
        #expect(TagTarget(manifestName: "NTAG215") == nil && TagTarget(manifestName: "ntag217") == nil)
    }

    @Test func anUnknownTagListsTheGeneratedNames() {
        let text = ManifestType4Tests.message("", tag: "ntag217")
        #expect(text.contains("tag: unknown value 'ntag217' (expected one of: \(Self.names.joined(separator: ", ")))"))
    }

    @Test func theTargetsFactsAreTheDescriptors() throws {
        for target in TagTarget.allCases {
            let descriptor = target.descriptor
            #expect(target.displayName == descriptor.displayName && target.acceptedChips == descriptor.accepts)
            #expect(target.simulatorChip == descriptor.jobSimulatorName && target.uidForm == descriptor.uidForm)
            #expect(target.isKeyed == (target.tagFamily?.isKeyed(descriptor) ?? false))
        }
        let ev1 = try #require(TagTarget(manifestName: "ultralight-ev1"))
        #expect(ev1.simulatorChip == "mf0ul21" && ev1.displayName == "Ultralight EV1" && !ev1.mayMirror)
        let type5 = try #require(TagTarget(manifestName: "type5"))
        #expect(type5.simulatorChip == "icode-slix" && type5.uidLength == 8 && type5.uidHexDigits == 16)
        let type3 = try #require(TagTarget(manifestName: "type3"))
        #expect(type3.uidLength == 7 && type3.uidHexDigits == 16 && type3.simulatorChip == "felica-lite-s")
        #expect(TagTarget(manifestName: "type2")?.mayMirror == true)
        #expect(TagTarget(manifestName: "type4")?.capacity(type4FileSize: 1024) == 1022)
    }

    @Test func messagesNameTheChipsTheDescriptorsSelect() {
        let protect = ManifestType4Tests.message(#", "protect": {"key": "k"}"#, tag: "icode-slix")
        #expect(protect.contains("applies only to Type 2 tags (" + Self.names[0..<7].joined(separator: ", ") + ")"))
        let format = ManifestType4Tests.message(#", "format": true"#, tag: "ntag215")
        #expect(
            format.contains(
                "formatting blank tags is for Type 5 jobs (icode-slix, icode-slix2, st25tv02k, type5) and "
                    + "Type 3 jobs (felica-lite-s, felica-standard, type3)"), "\(format)")
    }

    /// The chip tables of docs/manifest.md: the `tag` values of the field table and every row of "`tag` and
    /// capacity" are the generated ones, in order.
    @Test func docsManifestChipTablesAreTheGeneratedOnes() throws {
        let page = try String(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/manifest.md"), encoding: .utf8)
        let lines = page.components(separatedBy: "\n")
        let tagRow = try #require(lines.first { $0.hasPrefix("| `tag` | yes |") })
        #expect(tagRow == "| `tag` | yes | \(TagTarget.manifestValues) | — |")
        let header = try #require(lines.firstIndex { $0.hasPrefix("| `tag` | Capacity (bytes) |") })
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("|") }
        #expect(Array(rows) == TagTarget.capacityTableRows)
    }
}
