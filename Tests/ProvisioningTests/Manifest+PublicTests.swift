import Foundation
import Provisioning
import TestSupport
import Testing

/// The manifest's `public` fields (what a tap answer of `provision serve` may show): decoded with the position of
/// each name, and refused with file, line and `public[i]` when malformed or not a field of the records.
@Suite struct ManifestPublicTests {
    static let head = #"{"job": "j", "template": "t", "tag": "ntag213", "#

    static func parse(_ text: String) throws(JobInputError) -> Manifest {
        try Manifest(
            parsing: Array(text.utf8), manifestURL: URL(fileURLWithPath: "/work/line/jobs/x.json"),
            currentDirectory: URL(fileURLWithPath: "/work/line"))
    }

    @Test func publicNamesDecodeWithTheirPositions() throws {
        let manifest = try Self.parse(Self.head + #""records": "r.csv", "public": ["sku", "lot"]}"#)
        #expect(manifest.publicFields.map(\.name) == ["sku", "lot"])
        #expect(manifest.publicFields.map(\.position.column) == [80, 87])
    }

    @Test(arguments: [
        (#""public": "sku"}"#, "jobs/x.json:1:79: public: must be an array of field names, found a string"),
        (#""public": ["sku", "sku"]}"#, "jobs/x.json:1:87: public[1]: 'sku' is listed twice"),
        (#""public": [""]}"#, "jobs/x.json:1:80: public[0]: must not be empty"),
        (#""public": [1]}"#, "jobs/x.json:1:80: public[0]: must be a string, found a number"),
    ])
    func malformedPublicNamesAreRefusedWithTheirPosition(_ tail: String, _ message: String) {
        do {
            _ = try Self.parse(Self.head + #""records": "r.csv", "# + tail)
            Issue.record("no error")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func aPublicNameThatIsNotAFieldOfTheRecordsIsRefusedNamingItsLine() throws {
        let manifest = try Self.parse(
            Self.head + "\n" + #""records": [{"sku": "A", "name": "x"}],"# + "\n" + #""public": ["sku", "lot"]}"#)
        #expect(throws: JobInputError.self) { try manifest.checkPublicFields() }
        do {
            try manifest.checkPublicFields()
        } catch {
            #expect(error.description.hasPrefix("jobs/x.json:3:19: public[1]: 'lot' is not a field"), "\(error)")
        }
        var fine = manifest
        fine.publicFields.removeLast()
        try fine.checkPublicFields()
    }
}
