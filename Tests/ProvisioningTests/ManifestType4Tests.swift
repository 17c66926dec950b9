import Foundation
import NFCTags
import Provisioning
import Testing

/// The manifest's Type 4 targets (`ntag424`, `type4`) and their `type4` section.
@Suite struct ManifestType4Tests {
    static func parse(_ extra: String, tag: String = "type4") throws(JobInputError) -> Manifest {
        let text = #"{"job": "j", "template": "t.json", "records": "r.csv", "tag": "\#(tag)""# + extra + "}"
        return try Manifest(
            parsing: Array(text.utf8), manifestURL: URL(fileURLWithPath: "/line/jobs/x.json"),
            currentDirectory: URL(fileURLWithPath: "/line"))
    }

    static func message(_ extra: String, tag: String = "type4") -> String {
        do {
            _ = try parse(extra, tag: tag)
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test func defaultsSizeAType4JobForTheNTAG424File() throws {
        let generic = try Self.parse("")
        #expect(generic.tag.rawValue == "type4" && generic.type4 == Type4JobOptions())
        #expect(generic.capacity == 254)
        #expect(generic.tag.families().families.map(\.name) == ["type4"])
        let ntag424 = try Self.parse("", tag: "ntag424")
        #expect(ntag424.capacity == 254 && ntag424.tag.acceptedChips == [Type4Family.ntag424])
        #expect(try Self.parse("", tag: "ntag215").tag.families().families.map(\.name) == ["type2"])
    }

    @Test func theSectionSetsTheFileSizeAndTheLockMethod() throws {
        let manifest = try Self.parse(#", "type4": {"minimumFileSize": 2048, "honoursCCWriteByte": true}"#)
        #expect(manifest.type4 == Type4JobOptions(minimumFileSize: 2048, honoursCCWriteByte: true))
        #expect(manifest.capacity == 2046)
        let family = try #require(manifest.tag.families(type4: manifest.type4).families.first as? Type4Family)
        #expect(family.options.honoursCCWriteByte)
    }

    @Test(arguments: [
        (#", "type4": {"minimumFileSize": 4}"#, "type4", "type4.minimumFileSize"),
        (#", "type4": {"minimumFileSize": 40000}"#, "type4", "type4.minimumFileSize"),
        (#", "type4": {"minimumFileSize": 512}"#, "ntag424", "holds 256 bytes, not 512"),
        (#", "type4": {"honoursCCWriteByte": "yes"}"#, "type4", "must be true or false, found a string"),
        (#", "type4": {"size": 512}"#, "type4", "size: unknown key"),
        (#", "type4": {"minimumFileSize": 512}"#, "ntag215", "applies only to a Type 4 tag"),
        (#", "lock": "keys""#, "ntag424", "applies only to an NTAG 424 DNA job with an \"ntag424\" section"),
        (#", "protect": {"key": "k"}"#, "type4", "applies only to Type 2 tags"),
        (#", "protect": {"key": "k"}"#, "ntag424", "applies only to Type 2 tags"),
        (#", "signature": "require""#, "type4", "signature: a generic Type 4 tag has no originality signature"),
        (#", "signature": {"mode": "record"}"#, "type4", "only NTAG 424 DNA has one (\"tag\": \"ntag424\")"),
    ])
    func badSectionsAreRefusedNamingTheField(extra: String, tag: String, expected: String) {
        let text = Self.message(extra, tag: tag)
        #expect(text.contains(expected), "\(text)")
        #expect(text.hasPrefix("jobs/x.json:1:"), "\(text)")
    }

    @Test func anNTAG424JobMayRequireOrRecordItsOriginalitySignature() throws {
        let key424 = "04" + String(repeating: "AB", count: 56)
        let require = try Self.parse(#", "signature": {"mode": "require", "trust": ["\#(key424)"]}"#, tag: "ntag424")
        #expect(require.security.signature == .require && require.security.trustedKeys.first?.count == 57)
        #expect(try Self.parse(#", "signature": "record""#, tag: "ntag424").security.signature == .record)
        #expect(try Self.parse(#", "signature": "off""#, tag: "ntag424").security.signature == .off)
    }

    @Test func aGenericType4JobMayLockAndANTAG424OneMayNot() {
        #expect(Self.message(#", "lock": "permanent""#) == "accepted")
        #expect(Self.message(#", "lock": "none""#, tag: "ntag424") == "accepted")
    }
}
