import Foundation
import NFCTags
import TagEmulator
import TestSupport
import Testing

/// Stock `nfc-list` (libnfc-bin 1.8.0) against the emulated PN532 with Type 4 tags in the field: libnfc's
/// automatic RATS, its decoding of the ATS the emulator reports in InListPassiveTarget.
@Suite(.serialized)
struct PN532EmulatorType4Tests {
    /// `nfc-list -v` on a population `spec`; its output.
    private func nfcList(_ spec: String) async throws -> String {
        let field = try PN532TagPopulation(spec: ReaderSpec(spec))
        let emulator = try PN532Emulator(field: field)
        emulator.start()
        defer { emulator.stop() }
        let (status, text) = try await onThread {
            try runTool("nfc-list", ["-v"], connstring: "pn532_uart:" + emulator.slavePath)
        }
        #expect(status == 0, "\(text)")
        return text
    }

    @Test func nfcListShowsTheNTAG424DNAWithItsATS() async throws {
        let text = try await nfcList("sim:ntag424?uid=04A1B2C3D4E5F6")
        #expect(text.components(separatedBy: "ISO/IEC 14443A (106 kbps) target:").count == 2, "\(text)")
        #expect(text.contains("ATQA (SENS_RES): 03  44"), "\(text)")
        #expect(text.contains("UID (NFCID1): 04  a1  b2  c3  d4  e5  f6"), "\(text)")
        #expect(text.contains("SAK (SEL_RES): 20"), "\(text)")
        #expect(text.contains("* Compliant with ISO/IEC 14443-4"), "\(text)")
        // libnfc prints the ATS without its TL byte, then decodes it.
        #expect(text.contains("                ATS: 77  77  71  02  80  \n"), "\(text)")
        #expect(text.contains("* Max Frame Size accepted by PICC: 128 bytes"), "\(text)")
        #expect(text.contains("* Frame Waiting Time: 38.66 ms"), "\(text)")
        #expect(text.contains("* Historical bytes Tk: 80"), "\(text)")
    }

    @Test func nfcListShowsAGenericType4TagsOwnFrameWaitingTime() async throws {
        let text = try await nfcList("sim:type4?uid=04C0FFEE000001&fwi=9")
        #expect(text.contains("SAK (SEL_RES): 20"), "\(text)")
        #expect(text.contains("                ATS: 77  77  91  02  80  \n"), "\(text)")
        #expect(text.contains("* Frame Waiting Time: 154.7 ms"), "\(text)")
    }
}
