import NDEF
import NFCTags
import TestSupport
import Testing

/// Identification by GetVersion (`docs/reference/type4.md` §2.3), scripted APDU by APDU: what each answer costs and
/// which chip it records.
@Suite struct Type4ChipModelTests {
    private typealias V = Type4Vectors

    static func finished(_ script: ScriptedTransceiver) {
        #expect(script.mismatches.isEmpty, "\(script.mismatches)")
        #expect(script.remaining.isEmpty)
    }

    @Test func theNTAG424AnswerIsTheNTAG424InThreeAPDUs() throws {
        let script = ScriptedTransceiver(V.getVersion424)
        let tag = try V.identified(script)
        #expect(tag.chip == TagChip(family: "type4", id: "ntag424", displayName: "NTAG 424 DNA"))
        #expect(tag.chip == Type4Family.ntag424 && tag.genericReason == nil)
        #expect(tag.chipModel.ndefFileSize == 256 && tag.chipModel.lockMethod == .deliveryKey)
        #expect(tag.versionAnswer?.version?.uid == V.uid424)
        #expect(tag.cost.exchanges == 3 && tag.cost.writes == 0)
        Self.finished(script)
    }

    @Test func aDESFireIsNamedAsItselfAndHandledAsAGenericT4T() throws {
        let script = ScriptedTransceiver(V.getVersionDESFire)
        let tag = try V.identified(script)
        #expect(tag.chip?.id == "desfire" && tag.chip?.displayName == "MIFARE DESFire (HW 12h)")
        #expect(tag.chipModel.lockMethod == .needsKeys && tag.chipModel.ndefFileSize == nil)
        #expect(tag.chipModel.lockRefusal.contains("DESFire access right"))
        Self.finished(script)
    }

    @Test(arguments: ["6E 00", "6D 00", "91 1C"])
    func aRefusalIsTheGenericChipAfterOneAPDU(word: String) throws {
        let script = ScriptedTransceiver([.exchange(V.hex("90 60 00 00 00"), V.hex(word))])
        let tag = try V.identified(script)
        #expect(tag.chip == TagChip(family: "type4", id: "type4", displayName: "Type 4 tag"))
        #expect(tag.genericReason == "GetVersion refused (\(String(word.filter { $0 != " " })))")
        #expect(tag.chipModel.lockMethod == .unknown && tag.cost.exchanges == 1)
        Self.finished(script)
    }

    @Test func silenceToGetVersionIsTheGenericChipAfterAReactivation() throws {
        let script = ScriptedTransceiver([.fail(V.hex("90 60 00 00 00"), .noAnswer), .reactivation])
        let tag = try V.identified(script)
        #expect(tag.chip == Type4Family.generic && tag.versionAnswer == nil)
        #expect(tag.genericReason == "no answer to GetVersion (re-activated)")
        #expect(tag.cost.exchanges == 1 && tag.cost.reactivations == 1)
        Self.finished(script)
        let gone = ScriptedTransceiver([.fail(V.hex("90 60 00 00 00"), .tagLost)])
        #expect(throws: TransportError.tagLost) { try V.identified(gone) }
    }

    @Test func anUnparsableAnswerIsTheGenericChip() throws {
        let script = ScriptedTransceiver([
            .exchange(V.hex("90 60 00 00 00"), V.hex("04 04 02 91 AF")),
            .exchange(V.hex("90 AF 00 00 00"), V.hex("01 02 91 00")),
        ])
        let tag = try V.identified(script)
        #expect(tag.chip == Type4Family.generic)
        #expect(tag.genericReason == "GetVersion answer not understood (04 04 02 01 02)")
        Self.finished(script)
    }

    @Test func anotherVendorAndAnotherNTAGAreNamedHonestly() {
        let hardware = V.hex("04 04 02 10 00 0F 05")
        let part3 = V.hex("04 11 22 33 44 55 66 01 02 03 04 05 30 19")
        let ntag = Type4ChipModel.identify(Type4VersionAnswer(parts: [hardware, hardware, part3], status: 0x9100))
        #expect(ntag.model.chip.id == "ntag-t4t" && ntag.genericReason == nil)
        #expect(ntag.model.chip.displayName == "NXP NTAG, Type 4 (HW 10.00, 128 < size < 256 bytes)")
        var other = hardware
        other[0] = 0x02
        let foreign = Type4ChipModel.identify(Type4VersionAnswer(parts: [other, other, part3], status: 0x9100))
        #expect(foreign.model == .generic && foreign.genericReason == "GetVersion names vendor 02h, not NXP")
    }

    @Test func aFourthPartIsLeftOpenAndTheFirstSELECTIsRepeatedOnce() throws {
        let script = ScriptedTransceiver(
            [
                .exchange(V.hex("90 60 00 00 00"), V.hex("04 04 02 91 AF")),
                .exchange(V.hex("90 AF 00 00 00"), V.hex("01 02 91 AF")),
                .exchange(V.hex("90 AF 00 00 00"), V.hex("03 91 AF")),
                .exchange(V.selectApplication, V.hex("69 85")),
            ] + V.detection(nlen: [0, 0]))
        let tag = try V.identified(script)
        #expect(tag.versionAnswer?.leftOpen == true && tag.cost.exchanges == 3)
        #expect(try tag.detectNDEF() == (.readWrite, 2046))
        Self.finished(script)
    }

    @Test func aSELECTRefusedAfterACompleteGetVersionIsNotRepeated() throws {
        let script = ScriptedTransceiver(V.getVersion424 + [.exchange(V.selectApplication, V.hex("69 85"))])
        let tag = try V.identified(script)
        #expect(throws: StatusWordError(status: 0x6985, instruction: 0xA4)) { try tag.detectNDEF() }
        Self.finished(script)
    }
}
