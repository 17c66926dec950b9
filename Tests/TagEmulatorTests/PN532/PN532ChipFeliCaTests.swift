import Foundation
import NDEF
import NFCTags
import TagEmulator
import TestSupport
import Testing

/// The PN532's FeliCa initiator in front of an emulated FeliCa Lite-S, frame by frame in hex (`type5-type3.md`
/// §5.1–§5.4), and stock `nfc-list` on the pty listing the card with its IDm, PMm and system code.
@Suite(.serialized)
struct PN532ChipFeliCaTests {
    /// The IDm of population UID `04 B5 00 00 00 00 01`: Sony's `01 2E` and the UID's last six bytes.
    let idm: [UInt8] = [0x01, 0x2E, 0xB5, 0x00, 0x00, 0x00, 0x00, 0x01]
    let pmm: [UInt8] = [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00]

    private func chip(lineMode: Bool = false) throws -> PN532Chip {
        let field = try PN532TagPopulation(spec: ReaderSpec("sim:felica-lite-s?uid=04B50000000001&count=2"))
        let chip = PN532Chip(field: field)
        #expect(chip.handle([0xD4, 0x14, 0x01], wokenUp: true) == .reply([0xD5, 0x15]))
        _ = chip.handle([0xD4, 0x32, 0x05, 0x00, 0x01, 0x02])  // finite retries, as libnfc sets them
        return chip
    }

    @Test func inListPassiveTargetPollsAt212And424AndTypeAFindsNothing() throws {
        let chip = try chip()
        let polResponse = [0x14, 0x01] + idm + pmm + [0x88, 0xB4]
        #expect(
            chip.handle(Hex.bytes("D4 4A 01 01 00 FF FF 01 00")!) == .reply([0xD5, 0x4B, 0x01, 0x01] + polResponse))
        #expect(
            chip.handle(Hex.bytes("D4 4A 01 02 00 FF FF 01 00")!) == .reply([0xD5, 0x4B, 0x01, 0x01] + polResponse))
        // RC 00: no system code; a system the card lacks: no target.
        #expect(
            chip.handle(Hex.bytes("D4 4A 01 01 00 12 FC 00 00")!)
                == .reply([0xD5, 0x4B, 0x01, 0x01, 0x12, 0x01] + idm + pmm))
        #expect(chip.handle(Hex.bytes("D4 4A 01 01 00 FE 00 01 00")!) == .reply([0xD5, 0x4B, 0x00]))
        #expect(chip.handle(Hex.bytes("D4 4A 01 00")!) == .reply([0xD5, 0x4B, 0x00]), "a FeliCa card is no type A tag")
    }

    @Test func framesGoThroughInDataExchangeAndInCommunicateThruWithTheirLEN() throws {
        let chip = try chip()
        _ = chip.handle(Hex.bytes("D4 4A 01 01 00 FF FF 01 00")!)
        // Read Without Encryption of block 0 (the attribute block) through service 000B.
        let read = [0x10, 0x06] + idm + [0x01, 0x0B, 0x00, 0x01, 0x80, 0x00]
        let attributes = Hex.bytes("10 04 01 00 0D 00 00 00 00 00 01 00 00 00 00 23")!
        let answer = [0x1D, 0x07] + idm + [0x00, 0x00, 0x01] + attributes
        #expect(chip.handle([0xD4, 0x40, 0x01] + read) == .reply([0xD5, 0x41, 0x00] + answer))
        #expect(chip.handle([0xD4, 0x42] + read) == .reply([0xD5, 0x43, 0x00] + answer))
        // A wrong LEN, another IDm and Request Response 04 (a Lite-S lacks it) are silence: status 01.
        #expect(chip.handle([0xD4, 0x40, 0x01, 0x11] + read.dropFirst()) == .reply([0xD5, 0x41, 0x01]))
        var other = read
        other[9] ^= 0xFF
        #expect(chip.handle([0xD4, 0x40, 0x01] + other) == .reply([0xD5, 0x41, 0x01]))
        #expect(chip.handle([0xD4, 0x40, 0x01, 0x0A, 0x04] + idm) == .reply([0xD5, 0x41, 0x01]))
        // Polling 12FC inside the exchange, as nfcpy re-polls the NDEF system.
        #expect(
            chip.handle(Hex.bytes("D4 42 06 00 12 FC 01 00")!)
                == .reply([0xD5, 0x43, 0x00, 0x14, 0x01] + idm + pmm + [0x12, 0xFC]))
    }

    @Test func inDeselectLeavesTheCardAnsweringPolling() throws {
        let chip = try chip()
        _ = chip.handle(Hex.bytes("D4 4A 01 01 00 FF FF 01 00")!)
        #expect(chip.handle([0xD4, 0x44, 0x00]) == .reply([0xD5, 0x45, 0x00]))
        let again = chip.handle(Hex.bytes("D4 4A 01 02 00 FF FF 01 00")!)
        #expect(again == .reply([0xD5, 0x4B, 0x01, 0x01, 0x14, 0x01] + idm + pmm + [0x88, 0xB4]), "no HALT on FeliCa")
    }

    @Test func nfcListShowsTheLiteSWithIDmPMmAndSystemCode() async throws {
        let field = try PN532TagPopulation(spec: ReaderSpec("sim:felica-lite-s?uid=04B50000000001"))
        let emulator = try PN532Emulator(field: field)
        emulator.start()
        defer { emulator.stop() }
        let (status, text) = try await onThread {
            try runTool("nfc-list", [], connstring: "pn532_uart:" + emulator.slavePath)
        }
        #expect(status == 0, "\(text)")
        for rate in ["212", "424"] {
            #expect(text.contains("1 Felica (\(rate) kbps) passive target(s) found:\nFeliCa (\(rate) kbps) target:\n"))
        }
        // libnfc prints each byte as %02x and two spaces.
        #expect(text.components(separatedBy: "        ID (NFCID2): 01  2e  b5  00  00  00  00  01  \n").count == 3)
        #expect(text.components(separatedBy: "    Parameter (PAD): 00  f1  00  00  00  01  43  00  \n").count == 3)
        #expect(text.components(separatedBy: "   System Code (SC): 88  b4  \n").count == 3, "\(text)")
        #expect(!text.contains("ISO/IEC 14443A"), "\(text)")
    }
}
