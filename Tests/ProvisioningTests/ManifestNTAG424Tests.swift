import Foundation
import NFCTags
import Provisioning
import Testing

/// The manifest's `ntag424` section and the lock modes that need it (issue 25, "Keys").
@Suite struct ManifestNTAG424Tests {
    static let keys = #", "keys": {"brand": {"env": "BRAND_KEY"}}"#

    static func parse(_ extra: String, job: String = "j", tag: String = "ntag424") throws(JobInputError) -> Manifest {
        let text = #"{"job": "\#(job)", "template": "t.json", "records": "r.csv", "tag": "\#(tag)""# + extra + "}"
        return try Manifest(
            parsing: Array(text.utf8), manifestURL: URL(fileURLWithPath: "/line/jobs/x.json"),
            currentDirectory: URL(fileURLWithPath: "/line"))
    }

    static func message(_ extra: String, job: String = "j", tag: String = "ntag424") -> String {
        do {
            _ = try parse(extra, job: job, tag: tag)
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test func theSectionNamesTheMasterKeyAndDefaultsTheSystemIdentifierToTheJob() throws {
        let manifest = try Self.parse(Self.keys + #", "ntag424": {"master": "brand"}, "lock": "permanent""#)
        #expect(manifest.keyed?.scheme.section == "ntag424")
        let options = manifest.keyed?.options as? NTAG424JobOptions
        #expect(options == NTAG424JobOptions(master: "brand", systemIdentifier: Array("j".utf8)))
        #expect(manifest.lock == .permanent)
        let explicit = try Self.parse(
            Self.keys + #", "ntag424": {"master": "brand", "systemIdentifier": "Ünïcode-id", "macInput": "empty"}"#
                + #", "lock": "keys""#)
        let explicitOptions = explicit.keyed?.options as? NTAG424JobOptions
        #expect(explicitOptions?.systemIdentifier == Array("Ünïcode-id".utf8))
        #expect(explicitOptions?.macInput == .empty && explicit.lock == .keys)
        #expect(try Self.parse("").keyed == nil, "no section: the plain face")
    }

    @Test(arguments: [
        (#", "ntag424": {"master": "nope"}"#, "j", "names key 'nope', which the \"keys\" section does not define"),
        (#", "ntag424": {}"#, "j", "ntag424.master: missing"),
        (#", "ntag424": {"master": "brand", "systemIdentifier": ""}"#, "j", "it must be 1 to 20"),
        (#", "ntag424": {"master": "brand", "systemIdentifier": "123456789012345678901"}"#, "j", "is 21 bytes"),
        (#", "ntag424": {"master": "brand"}"#, "a-job-name-over-20-bytes", "set \"systemIdentifier\""),
        (#", "ntag424": {"master": "brand", "macInput": "uid"}"#, "j", "ntag424.macInput"),
        (#", "ntag424": {"master": "brand", "key": "x"}"#, "j", "key: unknown key"),
        (#", "lock": "keys""#, "j", "applies only to an NTAG 424 DNA job with an \"ntag424\" section"),
    ])
    func badSectionsAreRefusedNamingTheField(extra: String, job: String, expected: String) {
        let text = Self.message(Self.keys + extra, job: job)
        #expect(text.contains(expected), "\(text)")
        #expect(text.hasPrefix("jobs/x.json:1:"), "\(text)")
    }

    @Test func otherTagsTakeNeitherTheSectionNorTheKeysLock() {
        let section = Self.message(Self.keys + #", "ntag424": {"master": "brand"}"#, tag: "type4")
        #expect(section.contains("applies only to \"tag\": \"ntag424\""), "\(section)")
        let lock = Self.message(#", "lock": "keys""#, tag: "ntag215")
        #expect(lock.contains("\"keys\" applies only to an NTAG 424 DNA job"), "\(lock)")
    }
}
