import Foundation
import TestSupport
import Testing

/// Product authentication through a real backend: stock libnfc (`pn532_uart`) to a
/// `provision emulate pn532` child on a pty. The UID/counter mirror is applied by the emulated chip
/// on every READ, so the tap URLs below are what a phone would read.
@Suite(.serialized) struct AuthLibNFCTests {
    @Test func protectedMirroredMACdTagsThroughLibnfcVerifyAndRefuseUnauthenticatedWrites() async throws {
        let job = try AuthTapJob()
        let folder = job.folder
        let spec = "sim:ntag215?count=2&uid=04C10000000001&store=\(folder.store.path)"
        let (line, slave) = try await ChildProvision.pn532(["--tags", spec, "--line"])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(line.stderr)")
        let run = try await job.run(reader: "nfc:pn532_uart:" + slave)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try await line.stop() == 0)
        #expect(
            try folder.query("SELECT signature_status, key_id FROM tags") == [["valid", "brand"], ["valid", "brand"]])

        // The first tag again, staying in the field: two taps through libnfc.
        let one = "sim:ntag215?count=1&uid=04C10000000001&store=\(folder.store.path)"
        let (field, again) = try await ChildProvision.pn532(["--tags", one])
        try #require(again.hasPrefix("/tmp/pn532."), "\(field.stderr)")
        let (first, report) = try await job.tap(reader: "nfc:pn532_uart:" + again)
        #expect((report["protection"] as? [String: Any])?["auth0"] as? Int == 4)
        #expect(first.hasPrefix("https://example.com/a/S00001?m=04C10000000001x"), "\(first)")
        let (second, _) = try await job.tap(reader: "nfc:pn532_uart:" + again)
        print("libnfc taps: \(first) then \(second)")
        try await job.expectVerdicts(first: first, second: second)

        try await job.expectWriteRefusedUntilAuthenticated(reader: "nfc:pn532_uart:" + again)
        #expect(try await field.stop() == 0)
    }
}
