import NFCTags
import TagEmulator
import Testing

/// Issue 41 item 2: the `sim:` chip names are the simulator names the families publish
/// (`ChipDescriptor.simulatorName`), every one opens a population of its own chip, and the error for an unknown
/// chip lists them all.
@Suite struct SimulationOptionsChipNamesTests {
    @Test func chipNamesAreTheDescriptorsSimulatorNames() {
        #expect(SimulationOptions.chipNames == TagFamilies.standard.descriptors.compactMap(\.simulatorName))
    }

    @Test(arguments: TagFamilies.standard.descriptors.filter { $0.simulatorName != nil })
    func everyPublishedNameParsesToItsOwnChip(descriptor: ChipDescriptor) throws {
        let name = try #require(descriptor.simulatorName)
        let options = try SimulationOptions("sim:\(name)")
        #expect(options.chipName == name)
        #expect(options.uidForm == descriptor.uidForm, "\(name)")
    }

    @Test func anUnknownChipListsEveryPublishedName() {
        do {
            _ = try SimulationOptions("sim:ntag217")
            Issue.record("sim:ntag217 parsed")
        } catch {
            for name in SimulationOptions.chipNames { #expect(error.reason.contains(name), "\(error.reason)") }
        }
    }

    /// An option of another family's chips names that family's published chips (they had been listed by hand,
    /// Type 3 with its Lite-S only).
    @Test(arguments: [
        ("sim:ntag215?size=300", Type4Family.name), ("sim:ntag215?blocks=64", Type5Family.name),
        ("sim:ntag215?wcnt=on", Type3Family.name),
    ])
    func anOptionOfAnotherFamilyNamesItsChips(spec: String, family: String) {
        let names = TagFamilies.standard.descriptors.filter { $0.family == family }.compactMap(\.simulatorName)
        do {
            _ = try SimulationOptions(spec)
            Issue.record("\(spec) parsed")
        } catch {
            #expect(error.reason.contains("chips (" + names.map { "sim:" + $0 }.joined(separator: ", ") + ")"))
        }
    }
}
