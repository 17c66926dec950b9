import NDEF
import NFCTags
import TagEmulator
import TestSupport
import Testing

/// Issue 40 item 3: every `sim:` chip takes a `uid=` in its family's form, and its first tag has exactly that UID.
@Suite struct SimulationOptionsUIDFormTests {
    @Test func everyChipsFirstTagHasTheUIDAsGivenAndLaterTagsCountUp() throws {
        for (chip, uid) in try SimulatedChipUIDs.all() {
            let options = try SimulationOptions("sim:\(chip)?uid=\(Hex.compact(uid))")
            #expect(options.uidForm.accepts(uid), "\(chip)")
            let field = TagField(options: options)
            #expect(try field.arrive()?.uid == uid, "\(chip): the first tag")
            try field.removeCurrent()
            let second = try #require(try field.arrive()?.uid)
            #expect(second.count == uid.count && second != uid && second.prefix(2) == uid.prefix(2), "\(chip)")
        }
    }

    @Test func aFeliCaIDmIsTakenVerbatim() throws {
        let options = try SimulationOptions("sim:felica-lite-s?uid=01273D23BA0BA141")
        let field = TagField(options: options)
        #expect(try field.arrive()?.uid == (try hex("01 27 3D 23 BA 0B A1 41")))
        #expect(options.uid(at: 1) == (try hex("01 27 3D 23 BA 0B A1 42")))
        // Without uid=, the IDm stays Sony's 01 2E and six bytes from the seed.
        #expect(try SimulationOptions("sim:type3").uid(at: 0).prefix(2) == [0x01, 0x2E])
    }

    @Test func aUIDOfAnotherFormIsRefusedNamingTheChipAndItsForm() throws {
        for (chip, uid) in try SimulatedChipUIDs.all() {
            let form = try SimulationOptions("sim:\(chip)").uidForm
            let expected = "uid for \(chip) must be its \(form.name), \(form)"
            for wrong in [uid.dropLast(), uid + [0x00]].map({ Hex.compact($0) }) {
                expectRefused("sim:\(chip)?uid=\(wrong)", naming: expected)
            }
        }
        expectRefused(
            "sim:icode-slix2?uid=04040108A1B2C3D4", naming: "its UID, 16 hex digits (8 bytes, starting E0)")
        expectRefused("sim:felica-standard?uid=012E11223344556", naming: "its IDm, 16 hex digits (8 bytes)")
    }

    /// A `wrongchip` NTAG21x among FeliCa tags gets a 7-byte UID from the IDm (`01 2E …` would not fit it).
    @Test func aWrongChipAmongFeliCaTagsTakesASevenByteUID() throws {
        let field = TagField(
            options: try SimulationOptions("sim:felica-lite-s?uid=01273D23BA0BA141&faults=wrongchip:1"))
        let tag = try #require(try field.arrive())
        #expect(tag.tagChip.family == "type2")
        #expect(tag.uid == (try hex("04 3D 23 BA 0B A1 41")))
    }
}
