import Foundation
import TestSupport
import Testing

/// Pre-flight refuses a row whose field value would break its own tap URL's query (issue 44 item 4, finding 4): a
/// sku `A&m=B` in `?sku={{sku}}&p={{sun.picc}}&m={{sun.mac}}` ran 2/2 done, then no tap of it ever verified.
@Suite struct TapURLPreflightTests {
    static let environment = ["BRAND_KEY": "000102030405060708090A0B0C0D0E0F"]

    /// A keyed SUN job of two rows whose second sku is `sku`, with `uri` as its template.
    static func folder(uri: String, sku: String) throws -> JobFolder {
        let folder = try JobFolder(
            rows: 2, tag: "ntag424",
            extra: #", "keys": {"brand": {"env": "BRAND_KEY"}}, "ntag424": {"master": "brand"}"#)
        let template = #"{"records": [{"type": "uri", "uri": "\#(uri)"}]}"#
        try Data(template.utf8).write(to: folder.url.appendingPathComponent("template.json"))
        try Data("sku,name\nSKU-1,Item 1\n\(sku),Item 2\n".utf8).write(
            to: folder.url.appendingPathComponent("rows.csv"))
        return folder
    }

    @Test(arguments: [
        ("https://e.io/t?sku={{sku}}&p={{sun.picc}}&m={{sun.mac}}", "A&m=B"),
        ("https://e.io/t?sku={{sku}}&p={{sun.picc}}&m={{sun.mac}}", "A&p"),
        ("https://e.io/t/{{sku}}?p={{sun.picc}}&m={{sun.mac}}", "A#B"),
        ("https://e.io/t/{{sku}}?p={{sun.picc}}&m={{sun.mac}}", "A?m=B"),
        ("https://e.io/t?p={{sun.picc}}&m={{sun.mac}}&sku={{sku}}", "A#B"),
    ])
    func aValueBreakingTheQueryIsRefusedBeforeAnythingIsWritten(uri: String, sku: String) throws {
        let folder = try Self.folder(uri: uri, sku: sku)
        let validate = try ProvisionProcess.run(["validate", "job.json"], directory: folder.url)
        let said = validate.stdout + validate.stderr
        #expect(validate.status == 65, "\(said)")
        #expect(said.contains("rows.csv:3:1: row 2: sku: '\(sku)'"), "\(said)")
        #expect(said.contains("could never verify"), "\(said)")
        let run = try ProvisionProcess.run(
            [
                "run", "job.json", "--quiet", "--reader",
                folder.sim("ntag424", uid: "04C60000000001", options: "count=2"),
            ],
            directory: folder.url, environment: Self.environment)
        #expect(run.status == 65, "\(run.stdout)\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.ledger.path), "a ledger was written")
        let images = (try? FileManager.default.contentsOfDirectory(atPath: folder.store.path)) ?? []
        #expect(images.isEmpty, "tags were written: \(images)")
    }

    /// Values the query parser takes as they are: an `&` or `=` in the path, an `=` inside a value.
    @Test(arguments: [
        ("https://e.io/t/{{sku}}?p={{sun.picc}}&m={{sun.mac}}", "A&m=B"),
        ("https://e.io/t?sku={{sku}}&p={{sun.picc}}&m={{sun.mac}}", "A=B"),
    ])
    func aValueThatLeavesTheQueryAloneIsAccepted(uri: String, sku: String) throws {
        let folder = try Self.folder(uri: uri, sku: sku)
        let validate = try ProvisionProcess.run(["validate", "job.json"], directory: folder.url)
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
    }
}
