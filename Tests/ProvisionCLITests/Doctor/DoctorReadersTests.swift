import Foundation
import NFCTags
import ReaderPCSC
import Testing

@testable import ProvisionCLI

/// The readers and tag-families checks from the backends' listings.
@Suite struct DoctorReadersTests {
    private let noNFC = [
        ReaderListing(backend: "nfc", spec: "nfc:CONNSTRING", name: "libnfc", note: "no device found", available: false)
    ]
    private let pn532 = [
        ReaderListing(
            backend: "nfc", spec: "nfc:pn532_uart:/dev/ttyUSB0", name: "pn532_uart:/dev/ttyUSB0",
            note: "libnfc device", available: true)
    ]

    @Test func readersFoundAreListedWithTheirSpecs() {
        let findings = DoctorReaders.Findings(nfc: pn532, pcsc: .success(["ACS ACR122U 00 00"]))
        let check = DoctorReaders.readersCheck(findings)
        #expect(check.status == .ok)
        #expect(check.detail == "2 readers: nfc:pn532_uart:/dev/ttyUSB0, pcsc:#0 (ACS ACR122U 00 00)")
    }

    @Test func noReaderWarnsWithEachBackendsReason() {
        let noService = PCSCError(.noService, "pcscd is not running", status: .noService)
        let check = DoctorReaders.readersCheck(.init(nfc: noNFC, pcsc: .failure(noService)))
        #expect(check.status == .warn)
        #expect(check.detail.hasPrefix("no reader found (libnfc: no device found; PC/SC: pcscd is not running)"))
        let empty = DoctorReaders.readersCheck(.init(nfc: noNFC, pcsc: .success([])))
        #expect(empty.detail.contains("PC/SC: pcscd knows no reader"))
    }

    @Test func aListingThatTimedOutIsAWarningEvenWithReaders() {
        let check = DoctorReaders.readersCheck(.init(nfc: pn532, pcsc: nil))
        #expect(check.status == .warn)
        #expect(check.detail == "1 reader: nfc:pn532_uart:/dev/ttyUSB0; pcscd did not answer within 5 s")
        #expect(DoctorReaders.readersCheck(.init(nfc: nil, pcsc: .success([]))).detail.contains("libnfc device scan"))
    }

    @Test func familiesSayType2EverywhereAndNoType5ThroughLibNFC() throws {
        let check = DoctorReaders.familiesCheck(.init(nfc: pn532, pcsc: .success(["ACS ACR122U 00 00"])))
        #expect(check.status == .ok)
        let parts = check.detail.components(separatedBy: "; ")
        #expect(parts.first?.hasPrefix("nfc:pn532_uart:/dev/ttyUSB0: Type 2") == true)
        #expect(parts.first?.contains("not ISO 15693 (Type 5)") == true)
        #expect(check.detail.contains("pcsc:#0 (ACS ACR122U 00 00): Type 2 through PC/SC"))
        #expect(parts.first?.contains("Type 3 (FeliCa at 212 and 424 kbit/s)") == true)
        #expect(check.detail.contains("Type 3 (FeliCa): yes, PN532 InDataExchange"), "ACR122U: \(check.detail)")
        // Issue 41 item 2: the simulator's part names every family and every chip it presents, from the
        // descriptors (it had listed them by hand, in another order and wording).
        let sim = try #require(parts.last)
        #expect(sim.hasPrefix("sim: Type 2 (NTAG213, "), "\(sim)")
        for family in TagFamilies.standard.families {
            #expect(sim.contains(family.displayName + " ("), "\(sim)")
            for chip in family.descriptors where chip.simulatorName != nil {
                #expect(sim.contains(chip.displayName), "\(chip.displayName): \(sim)")
            }
        }
        let none = DoctorReaders.familiesCheck(.init(nfc: noNFC, pcsc: .success([])))
        #expect(none.detail.hasPrefix("no reader to check; a libnfc (PN532) reader reaches Type 2"))
    }
}
