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
}
