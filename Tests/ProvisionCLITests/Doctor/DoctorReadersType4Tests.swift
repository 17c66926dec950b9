import Testing

@testable import ProvisionCLI

/// `doctor`'s tag-families check names Type 4 for PC/SC readers (the ATR tells the family).
@Test func familiesSayType4ThroughPCSC() {
    let check = DoctorReaders.familiesCheck(.init(nfc: [], pcsc: .success(["Virtual PCD 0 00 00"])))
    #expect(check.detail.contains("pcsc:#0 (Virtual PCD 0 00 00): Type 2 through PC/SC"))
    #expect(
        check.detail.contains("and Type 4 (ISO-DEP; told by the ATR, APDUs passed unchanged)"), "\(check.detail)")
}
