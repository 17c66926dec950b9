import Foundation
import TestSupport
import Testing

/// Type 4 tags on one `provision emulate pn532` process, reached by two host stacks: nfcpy runs ISO-DEP
/// itself (SetParameters `00`, RATS and I-blocks through InCommunicateThru), stock libnfc lets the PN532
/// do it (automatic RATS, APDUs through InDataExchange). Each reads what the other wrote.
@Suite(.serialized)
struct EmulateCommandType4Tests {
    @Test func nfcpyReadsTheMessageLibnfcWroteToAnNTAG424DNA() async throws {
        let uri = "https://example.com/t4/libnfc-wrote"
        let (emulator, slave) = try await ChildProvision.pn532(
            ["--tags", "sim:ntag424?uid=04424242000001", "--lenient-power"])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        let blank = try await NfcpyReader.readTag(at: slave)
        #expect(blank.status == 0, "\(blank.stdout)\(blank.stderr)")
        #expect(blank.json?["type"] as? String == "Type4ATag", "\(blank.stdout)")
        #expect(blank.uris == [], "an empty NDEF file")
        let written = try await onThread {
            try ProvisionProcess.run(["write", "--reader", "nfc:pn532_uart:" + slave, "--uri", uri])
        }
        #expect(written.status == 0, "\(written.stdout)\(written.stderr)")
        #expect(written.stdout.contains("NTAG 424 DNA"), "\(written.stdout)")
        let read = try await NfcpyReader.readTag(at: slave)
        #expect(read.status == 0, "\(read.stdout)\(read.stderr)")
        #expect(read.json?["type"] as? String == "Type4ATag", "\(read.stdout)")
        #expect(read.uris == [uri], "\(read.stdout)")
        #expect(try await emulator.stop() == 0)
    }

    @Test(arguments: ["sim:ntag424?uid=04424242000002", "sim:type4?uid=04424242000003&size=1024"])
    func nfcpyWritesAndLibnfcInspectReadsItWithTheATS(_ spec: String) async throws {
        let uri = "https://example.com/t4/nfcpy-wrote"
        let (emulator, slave) = try await ChildProvision.pn532(["--tags", spec, "--lenient-power"])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        let written = try await NfcpyReader.writeTag(at: slave, uri: uri)
        #expect(written.status == 0, "\(written.stdout)\(written.stderr)")
        #expect(written.uris == [uri], "\(written.stdout)")
        let again = try await NfcpyReader.readTag(at: slave)
        #expect(again.uris == [uri], "a fresh nfcpy connection: \(again.stdout)\(again.stderr)")
        let inspected = try await onThread {
            try ProvisionProcess.run(["inspect", "--reader", "nfc:pn532_uart:" + slave])
        }
        #expect(inspected.status == 0, "\(inspected.stdout)\(inspected.stderr)")
        // Both chips announce the data sheet's ATS (the generic tag takes the NTAG 424 DNA's by default).
        let atsLine = "ATS         06 77 77 71 02 80: FSCI 7 (FSC 128 bytes)"
        #expect(inspected.stdout.contains(atsLine), "\(inspected.stdout)")
        #expect(inspected.stdout.contains("SAK 20"), "\(inspected.stdout)")
        #expect(inspected.stdout.contains(uri), "\(inspected.stdout)")
        #expect(try await emulator.stop() == 0)
    }
}
