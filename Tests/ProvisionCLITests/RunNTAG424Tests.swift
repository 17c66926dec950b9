import Foundation
import TestSupport
import Testing

/// A job with an `ntag424` section validates (its SUN layout included) but `run` refuses it before any tag or ledger
/// until keyed personalisation lands (issue 25).
@Suite struct RunNTAG424Tests {
    @Test func validateAcceptsAKeyedSUNJobAndRunRefusesItWritingNothing() throws {
        let folder = try JobFolder(
            rows: 2, tag: "ntag424",
            extra: #", "keys": {"brand": {"env": "BRAND_KEY"}}, "ntag424": {"master": "brand"}"#)
        let template = #"{"records": [{"type": "uri", "uri": "https://e.io/{{sku}}?p={{sun.picc}}&m={{sun.mac}}"}]}"#
        try Data(template.utf8).write(to: folder.url.appendingPathComponent("template.json"))
        let validate = try ProvisionProcess.run(["validate", "job.json"], directory: folder.url)
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        let run = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim("ntag424", uid: "04C40000000001")], directory: folder.url,
            environment: ["BRAND_KEY": String(repeating: "00", count: 16)])
        #expect(run.status == 69, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("does not run yet; nothing was written"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.ledger.path))
        #expect(!FileManager.default.fileExists(atPath: folder.store.path))
    }
}
