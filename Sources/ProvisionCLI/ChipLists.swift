import NFCTags
import TagEmulator

/// The chip lists help texts, `readers` and `doctor` show, generated from the families' descriptors
/// (`TagFamily.chips`, `anyChip`) so that no list a person reads can drift from what the families publish.
enum ChipLists {
    /// `a`, `a and b`, `a, b and c`.
    static func joined(_ parts: [String]) -> String {
        guard let last = parts.last else { return "" }
        return parts.count == 1 ? last : parts.dropLast().joined(separator: ", ") + " and " + last
    }

    /// `Type 2 (…), Type 4 (…) and Type 3 (…)`: each of `families` with the display names of its
    /// descriptors `include` selects (a family none of whose descriptors is selected is left out).
    static func byFamily(
        _ families: [any TagFamily] = TagFamilies.standard.families,
        include: (ChipDescriptor) -> Bool = { _ in true },
        name: (any TagFamily, ChipDescriptor) -> String = { $1.displayName }
    ) -> String {
        joined(
            families.compactMap { family in
                let names = family.descriptors.filter(include).map { name(family, $0) }
                return names.isEmpty ? nil : "\(family.displayName) (\(names.joined(separator: ", ")))"
            })
    }

    /// Every family with its chips (one a descriptor), a keyed one and SUN URLs marked (the top-level help's list).
    static var named: String {
        byFamily(include: { $0.accepts.count == 1 }, name: namedWithExtras)
    }

    /// `CHIP with per-tag keys and SUN URLs`: the chip's name and what sets it apart.
    static func namedWithExtras(_ family: any TagFamily, _ chip: ChipDescriptor) -> String {
        let extras = [
            family.isKeyed(chip) ? "per-tag keys" : nil,
            chip.capabilities.mirrors.contains(.sun) ? "SUN URLs" : nil,
        ].compactMap { $0 }
        return chip.displayName + (extras.isEmpty ? "" : " with " + extras.joined(separator: " and "))
    }

    /// The `sim:` chip of the first keyed chip the families publish (help examples of a keyed job's tags).
    static var keyedSimulatorName: String {
        let families = TagFamilies.standard.families
        let keyed = families.lazy.flatMap { family in family.chips.filter { family.isKeyed($0) } }
        return keyed.first?.jobSimulatorName ?? SimulationOptions.defaultChip.rawValue
    }

    /// The display names of `family`'s named chips, `a, b and c` (help texts).
    static func chips(of family: String) -> String {
        joined(TagFamilies.standard.named(family)?.chips.map(\.displayName) ?? [])
    }

    /// `text` broken at spaces into lines of at most `width` characters, each line after the first indented by
    /// `indent` spaces (a help text's continuation column).
    static func wrapped(_ text: String, width: Int = 100, indent: Int = 0) -> String {
        RunSummaryText.wrap(text, width: width).joined(separator: "\n" + String(repeating: " ", count: indent))
    }

    /// The families and chips the simulator presents (`ChipDescriptor.simulatorName`).
    static var simulated: String { byFamily { $0.simulatorName != nil } }

    /// The `sim:` specs of the chips the family named `family` publishes simulator names for, as a list
    /// (`sim:a and sim:b`).
    static func simulatorSpecs(_ family: String) -> String {
        joined(simulatorNames(family).map { "sim:" + $0 })
    }

    /// The simulator names the family named `family` publishes.
    static func simulatorNames(_ family: String) -> [String] {
        TagFamilies.standard.named(family)?.descriptors.compactMap(\.simulatorName) ?? []
    }

    /// `sim:X for Y, …`: the simulated chip a job runs on when its target has no simulator of its own name,
    /// wrapped for a help text whose continuation lines start at column `indent`.
    static func jobSimulators(indent: Int) -> String {
        wrapped(jobSimulators, width: 100 - indent, indent: indent)
    }

    /// `sim:X for Y, …`: the simulated chip a job runs on when its target has no simulator of its own name.
    static var jobSimulators: String {
        TagFamilies.standard.descriptors.filter { $0.jobSimulatorName != $0.simulatorName }
            .map { "sim:\($0.jobSimulatorName) for \($0.manifestName)" }.joined(separator: ", ")
    }
}
