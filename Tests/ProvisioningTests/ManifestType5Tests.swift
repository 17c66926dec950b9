import Foundation
import NFCTags
import Provisioning
import Testing

/// The manifest's Type 5 targets (`icode-slix`, `icode-slix2`, `st25tv02k`, `type5`) and `format`.
@Suite struct ManifestType5Tests {
    static func message(_ extra: String, tag: String = "type5") -> String {
        do {
            _ = try ManifestType4Tests.parse(extra, tag: tag)
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test(arguments: [("icode-slix", 102), ("icode-slix2", 308), ("st25tv02k", 242), ("type5", 102)])
    func theTargetsAreType5WithTheirCapacities(tag: String, capacity: Int) throws {
        let manifest = try ManifestType4Tests.parse("", tag: tag)
        #expect(manifest.tag.family == "type5" && manifest.capacity == capacity)
        #expect(manifest.tag.families().families.map(\.name) == ["type5"] && manifest.tag.uidLength == 8)
        #expect(!manifest.format)
    }

    @Test func formatIsATypeFiveSwitch() throws {
        #expect(try ManifestType4Tests.parse(#", "format": true"#, tag: "icode-slix").format)
        #expect(Self.message(#", "format": "yes""#).contains("format: must be true or false, found a string"))
        #expect(Self.message(#", "format": true"#, tag: "ntag215").contains("formatting blank tags is for Type 5"))
        #expect(Self.message(#", "format": false"#, tag: "ntag215") == "accepted")
    }

    @Test func protectAndSignatureAreRefused() {
        #expect(Self.message(#", "protect": {"key": "k"}"#).contains("applies only to Type 2 tags"))
        #expect(Self.message(#", "signature": "record""#).contains("no originality signature check for Type 5"))
    }
}
