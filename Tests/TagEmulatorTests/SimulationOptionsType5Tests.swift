import Foundation
import NDEF
import NFCTags
import TagEmulator
import TestSupport
import Testing

/// `sim:icode-slix`, `icode-slix2`, `st25tv02k` and `type5` specs, and the Type 5 populations `TagField` builds.
@Suite struct SimulationOptionsType5Tests {
    @Test func theType5ChipsAndTheirOptionsParse() throws {
        let slix = try SimulationOptions("sim:icode-slix?count=2&uid=E004015000000001&prog=4")
        #expect(slix.type5 == .icodeSLIX.with(writeMicroseconds: 4_000) && slix.chipName == "icode-slix")
        #expect(slix.uid(at: 1) == [0xE0, 0x04, 0x01, 0x50, 0, 0, 0, 2])
        let tv = try SimulationOptions("sim:st25tv02k?blocks=80&icref=35&unknown=silence")
        #expect(tv.type5?.blockCount == 80 && tv.type5?.icReference == 0x35 && tv.type5SilentToUnknown)
        #expect(try SimulationOptions("sim:type5").uid(at: 0).prefix(2) == [0xE0, 0x16])
        let nxp = try SimulationOptions("sim:icode-slix2?optionwrite=accept&extgsi=on")
        #expect(nxp.type5?.acceptsOptionFlagOnWrites == true && nxp.type5?.answersExtendedSystemInformation == true)
        #expect(Type5EmulatedChip.icodeSLIX2.acceptsOptionFlagOnWrites == false)
        #expect(try SimulationOptions("sim:icode-slix2").uid(at: 0).prefix(4) == [0xE0, 0x04, 0x01, 0x08])
    }

    @Test(arguments: [
        (
            "sim:icode-slix?uid=04A00000000001",
            "uid for icode-slix must be its UID, 16 hex digits (8 bytes, starting E0)"
        ),
        ("sim:icode-slix?blocks=64", "blocks is 64 or 80 for st25tv02k"),
        ("sim:st25tv02k?blocks=70", "blocks is 64 or 80 for st25tv02k"),
        ("sim:icode-slix?icref=1", "icref must be 2 hex digits"),
        ("sim:icode-slix?fwi=3", "is for Type 4 chips"),
        ("sim:icode-slix?wrongpwd=nak", "is not for Type 5 chips"),
        ("sim:icode-slix?faults=wrongchip:0.5", "not for Type 5 chips"),
        ("sim:ntag215?blocks=64", "is for Type 5 chips"),
        ("sim:icode-slix?optionwrite=wait", "optionwrite must be 'refuse' or 'accept'"),
        ("sim:icode-slix?extgsi=yes", "extgsi must be 'on' or 'off'"),
    ])
    func badSpecsNameTheOption(spec: String, expected: String) {
        expectRefused(spec, naming: expected)
    }

    @Test func aStoredType5PopulationComesBackWithItsLocks() throws {
        let store = try Fixtures.temporaryDirectory("t5-store")
        defer { try? FileManager.default.removeItem(at: store) }
        let field = TagField(options: try SimulationOptions("sim:icode-slix?count=2&store=\(store.path)"))
        guard case .tag(let detected) = try field.poll(), let tag = field.current as? Type5Emulator else {
            Issue.record("no Type 5 tag")
            return
        }
        #expect(detected.isISO15693 && detected.uid.count == 8)
        _ = tag.exchange([0x02, 0x22, 0x01])
        try field.removeCurrent()
        let stored = TagField(
            options: try SimulationOptions("sim:icode-slix?population=stored&store=\(store.path)"))
        guard case .tag(let again) = try stored.poll(), let back = stored.current as? Type5Emulator else {
            Issue.record("no stored tag")
            return
        }
        #expect(again.uid == detected.uid && back.locked[1])
    }
}
