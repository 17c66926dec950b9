import Foundation
import TestSupport
import Testing

/// One `provision emulate pn532` process serving two host stacks in turn, as an operator swaps
/// tools on one reader (issue 27 item 16): nfcpy, stock libnfc (`provision write`), nfcpy again.
@Suite(.serialized)
struct EmulateCommandPN532Tests {
    /// nfcpy reads the blank tag, `provision write` writes `uri` through stock libnfc and closes,
    /// nfcpy reads again: all on one `provision emulate pn532 --lenient-power ARGS` process.
    private func nfcpyAfterLibnfc(
        writing uri: String, emulatorArguments: [String] = []
    ) async throws -> (blank: ClientScript.Outcome, read: ClientScript.Outcome) {
        let (emulator, slave) = try await ChildProvision.pn532(
            ["--tags", "sim:ntag215?uid=04C0FFEE271600", "--lenient-power"] + emulatorArguments)
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        let blank = try await NfcpyReader.readTag(at: slave)
        let written = try await onThread {
            try ProvisionProcess.run(["write", "--reader", "nfc:pn532_uart:" + slave, "--uri", uri])
        }
        #expect(written.status == 0, "\(written.stdout)\(written.stderr)")
        let read = try await NfcpyReader.readTag(at: slave)
        #expect(try await emulator.stop() == 0)
        return (blank, read)
    }

    /// What our backend leaves in TxMode/RxMode (RX CRC off) outlives its session, as a real PN532's
    /// registers do; nfcpy never sets TX CRC itself, and the select switches CRC on (the emulator's
    /// default). nfcpy must see the NTAG215 and the message libnfc wrote.
    @Test
    func nfcpyReadsWhatLibnfcWroteOnTheSameEmulator() async throws {
        let uri = "https://example.com/issue-27/16"
        let (blank, read) = try await nfcpyAfterLibnfc(writing: uri)
        #expect(blank.status == 0, "\(blank.stdout)\(blank.stderr)")
        #expect(blank.json?["type"] as? String == "NTAG215", "\(blank.stdout)")
        #expect(blank.uris == [], "a formatted, empty NDEF area")
        #expect(read.status == 0, "\(read.stdout)\(read.stderr)")
        #expect(read.json?["type"] as? String == "NTAG215", "\(read.stdout)")
        #expect(read.json?["product"] as? String == "NXP NTAG215")
        #expect(read.uris == [uri], "\(read.stdout)")
    }

    /// The emulator as it was (`--select-keeps-crc`: selects keep the host's CRC bits). Issue 27 item
    /// 16 came from our backend's old raw mode, which left TX CRC off: nfcpy's tag commands then went out
    /// without CRC_A and it saw a generic Type 2 tag without NDEF. The backend now clears only RX CRC,
    /// as nfcpy does itself for each Type 2 tag, and leaves TX CRC on, so nfcpy reads what libnfc
    /// wrote on this emulator too.
    @Test
    func nfcpyReadsAfterLibnfcEvenWhenSelectsKeepTheHostsCRCBits() async throws {
        let uri = "https://example.com/issue-27/16"
        let (blank, read) = try await nfcpyAfterLibnfc(writing: uri, emulatorArguments: ["--select-keeps-crc"])
        #expect(blank.json?["type"] as? String == "NTAG215", "\(blank.stdout)")
        #expect(read.status == 0, "\(read.stdout)\(read.stderr)")
        #expect(read.json?["type"] as? String == "NTAG215", "\(read.stdout)")
        #expect(read.uris == [uri], "\(read.stdout)")
    }
}
