import Foundation
import NFCTags
import Provisioning
import TagEmulator
import Testing

@testable import ProvisionCLI

/// Issue 41 item 2: every help text that names chips names them from the families' descriptors, so a chip
/// added, renamed or dropped in its family's folder changes every list, and a hand-written list fails here.
@Suite struct ChipListsTests {
    /// The help of `verb` (the top-level help for `nil`), whitespace runs folded to one space.
    static func help(_ verb: String?) async -> String {
        let context = CommandContext.buffered()
        _ = await ProvisionCLI.run((verb.map { [$0] } ?? []) + ["--help"], context: context)
        return context.out.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static var verbs: [String] { CommandRegistry.all.map { $0.name } }

    /// Every `sim:NAME` a help text shows is a simulator name a family publishes (or the placeholder CHIP).
    @Test func everySimulatedChipAHelpNamesIsPublished() async {
        let published = Set(SimulationOptions.chipNames)
        for verb in [nil] + Self.verbs.map(Optional.some) {
            let text = await Self.help(verb)
            for match in text.matches(of: /sim:([a-z0-9-]+)/) {
                let name = String(match.output.1)
                #expect(name == "CHIP" || published.contains(name), "\(verb ?? "provision") --help: sim:\(name)")
            }
        }
    }

    @Test func theTopLevelHelpListsEveryFamilysChips() async {
        let text = await Self.help(nil)
        #expect(text.contains(ChipLists.named), "\(text)")
        for family in TagFamilies.standard.families {
            for chip in family.chips where chip.accepts.count == 1 {
                #expect(text.contains(chip.displayName), "\(chip.displayName)")
            }
        }
    }

    @Test func emulateListsEachFamilysSimulatedChips() async {
        let text = await Self.help("emulate")
        for family in [Type2Family.name, Type4Family.name, Type5Family.name] {
            let specs = ChipLists.simulatorNames(family).map { "sim:" + $0 }
            #expect(!specs.isEmpty && text.contains(ChipLists.joined(specs)), "\(family): \(text)")
        }
    }

    @Test func runNamesTheSimulatorOfEveryTargetWithoutOneOfItsOwn() async throws {
        let text = await Self.help("run")
        for target in TagTarget.allCases where target.descriptor.simulatorName != target.simulatorChip {
            #expect(text.contains("sim:\(target.simulatorChip) for \(target.rawValue)"), "\(target)")
        }
    }

    @Test func lockListsEveryType2ChipWithADynamicLockPage() async {
        let text = await Self.help("lock")
        for model in ChipModel.allCases {
            #expect(text.contains(model.displayName + ": page") == (model.dynamicLockPage != nil), "\(model)")
        }
    }
}
