import Crypto
import NFCTags

/// Lists of targets for people, generated from the families' descriptors so messages and help texts that
/// name chips cannot drift from what the families publish.
extension TagTarget {
    /// The targets `include` selects, grouped by family: `Type 5 jobs (…, type5) and Type 3 jobs (…, type3)`, with
    /// `noun` after each family's name and the targets' manifest names in parentheses.
    public static func list(_ noun: String, where include: (TagTarget) -> Bool) -> String {
        let selected = allCases.filter(include)
        var families: [String] = []
        for target in selected where !families.contains(target.family) { families.append(target.family) }
        let parts = families.map { family in
            let label = TagFamilies.standard.named(family)?.displayName ?? family
            let names = selected.filter { $0.family == family }.map(\.rawValue).joined(separator: ", ")
            return "\(label) \(noun) (\(names))"
        }
        return joinedForPeople(parts)
    }

    /// `a`, `a and b`, `a, b and c`.
    static func joinedForPeople(_ parts: [String]) -> String {
        guard let last = parts.last else { return "" }
        return parts.count == 1 ? last : parts.dropLast().joined(separator: ", ") + " and " + last
    }

    /// `secp128r1 for Type 2 tags (…), 66 hex digits, or secp224r1 for Type 4 tags (…), 114 hex digits`: the
    /// public keys `signature.trust` takes, by the curve of the targets' originality signatures.
    public static var signatureKeyForms: String {
        [OriginalityCurve.secp128r1, .secp224r1].map { curve in
            let name = curve == .secp128r1 ? "secp128r1" : "secp224r1"
            return "\(name) for " + list("tags") { $0.capabilities.originalitySignature == curve }
                + ", \(2 * curve.publicKeyBytes) hex digits"
        }.joined(separator: ", or ")
    }

    /// The job types whose tags take a per-tag password (`protect`).
    public static var passwordProtectionList: String { list("tags") { $0.capabilities.passwordProtection } }
}

/// The chip tables of docs/manifest.md, generated from the descriptors (a test holds the page to them).
extension TagTarget {
    /// The `tag` row's values in the manifest field table: `` `…`, `type2` (Type 2, ISO 14443-A); … ``.
    public static var manifestValues: String {
        TagFamilies.standard.families.map { family in
            family.descriptors.map { "`\($0.manifestName)`" }.joined(separator: ", ")
                + " (\(family.displayName), \(family.transport))"
        }.joined(separator: "; ")
    }

    /// The rows of the "`tag` and capacity" table: `tag`, capacity, user memory, what it accepts.
    public static var capacityTableRows: [String] {
        allCases.map { target in
            let descriptor = target.descriptor
            let capacity =
                switch descriptor.capacity {
                case .bytes(let count): "\(count)"
                case .ndefFile(let lengthField):
                    "`type4.minimumFileSize` − \(lengthField) (\(target.capacity) by default)"
                }
            let memory = descriptor.userMemory.map(String.init) ?? "—"
            return "| `\(descriptor.manifestName)` | \(capacity) | \(memory) | \(descriptor.displayName) "
                + "(\(descriptor.capacityNote)) |"
        }
    }
}
