import Foundation
import NFCTags
import TestSupport
import Testing

/// No chip is named outside its family: every name a descriptor, a chip or a keyed scheme gives (manifest names,
/// aliases, display names) is absent from the Provisioning, Ledger, Reports and CLI sources, comments and strings
/// included, so a new chip is its family folder and its descriptor only (issue 41).
@Suite struct ChipNamesStayInFamiliesTests {
    /// The layers above the families, which must ask the families instead of naming chips.
    static let layers = ["Sources/Provisioning", "Sources/Ledger", "Sources/Reports", "Sources/ProvisionCLI"]

    /// Lower-cased, with every run of characters other than letters and digits made one space, padded with spaces,
    /// so `ultralight-ev1`, `Ultralight EV1` and `ULTRALIGHT_EV1` match one another as whole words.
    static func normalised(_ text: String) -> String {
        var out = " "
        for scalar in text.lowercased().unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else if out.last != " " {
                out.append(" ")
            }
        }
        return out.last == " " ? out : out + " "
    }

    /// Every chip name the shipped families publish, normalised.
    static var chipNames: Set<String> {
        var names: Set<String> = []
        for family in TagFamilies.standard.families {
            for descriptor in family.chips {
                names.formUnion(descriptor.names + [descriptor.displayName])
                names.formUnion(descriptor.accepts.flatMap { [$0.id, $0.displayName] })
            }
            names.formUnion(family.keyedSchemes.map(\.displayName))
        }
        return Set(names.map(normalised).filter { $0.trimmingCharacters(in: .whitespaces).count >= 3 })
    }

    @Test func theShippedFamiliesNameChips() {
        // The scan below proves nothing if the list is empty or lost its chips.
        let names = Self.chipNames
        #expect(names.count >= 10, "\(names.sorted())")
        #expect(names.contains(Self.normalised("ntag215")), "\(names.sorted())")
    }

    @Test func noChipNameInTheLayersAboveTheFamilies() throws {
        let names = Self.chipNames
        var hits: [String] = []
        for layer in Self.layers {
            let root = Fixtures.repositoryRoot.appendingPathComponent(layer)
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = files?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                let lines = try String(contentsOf: url, encoding: .utf8).split(
                    separator: "\n", omittingEmptySubsequences: false)
                for (index, line) in lines.enumerated() {
                    let text = Self.normalised(String(line))
                    for name in names where text.contains(name) {
                        let found = name.trimmingCharacters(in: .whitespaces)
                        hits.append("\(layer)/\(url.lastPathComponent):\(index + 1): \(found)")
                    }
                }
            }
        }
        #expect(hits.isEmpty, "chip names outside their families:\n\(hits.joined(separator: "\n"))")
    }

    @Test func theScanFindsAPlantedName() {
        // The same matching the scan uses finds a chip named in another case inside a comment.
        let planted = Self.normalised("/// Only an Ntag215 takes this path (AND-ed into a comment).")
        #expect(Self.chipNames.contains { planted.contains($0) })
    }
}
