import JSONReader
import NFCTags

extension ManifestDecoder {
    /// The section of a family's keyed scheme (`KeyedScheme.section`), decoded by the scheme; allowed only for a
    /// job whose chips the scheme personalises, and the lock mode that needs it: `keys` hands writes to the tag's
    /// write key (docs/authentication.md). `permanent` without the section uses the chip's delivery keys.
    func decodeKeyed(
        _ root: JSONNode, job: String, tag: TagTarget, lock: Manifest.LockMode, keys: [String: KeySource]
    ) throws(JobInputError) -> KeyedJob? {
        let schemes = TagFamilies.standard.keyedSchemes
        let present = schemes.compactMap { scheme in root[scheme.section].map { (scheme, $0) } }
        guard let (scheme, node) = present.first else {
            if lock == .keys, let lockNode = root["lock"] {
                let jobs = schemes.map { "an \($0.displayName) job with an \"\($0.section)\" section" }
                throw fail(lockNode, "lock", "\"keys\" applies only to " + jobs.joined(separator: " or "))
            }
            return nil
        }
        guard !tag.acceptedChips.isEmpty, tag.acceptedChips.isSubset(of: scheme.chips) else {
            let targets = scheme.chips.map { "\"tag\": \"\($0.id)\"" }.sorted().joined(separator: " or ")
            throw fail(node, scheme.section, "applies only to \(targets), not \(tag)")
        }
        if let why = Self.unsupported(scheme) { throw fail(node, scheme.section, why) }
        let reader = SectionReader(decoder: self, job: job, keyIDs: keys.keys.sorted())
        do {
            return KeyedJob(scheme: scheme, options: try scheme.decodeSection(node, reader: reader))
        } catch let error as JobInputError {
            throw error
        } catch {
            throw fail(node, scheme.section, "\(error)")
        }
    }

    /// Why this build cannot run a job of `scheme`, `nil` when it can: the line and the audit lay out and check a
    /// keyed tag through its dynamic message, so a scheme without one would otherwise run as an unkeyed job, silently.
    static func unsupported(_ scheme: any KeyedScheme) -> String? {
        guard scheme.dynamicMessage == nil else { return nil }
        return "\(scheme.displayName) personalisation renders no dynamic message, which this build's keyed jobs need"
    }

    /// The decoder's helpers as a keyed scheme reads its section with them.
    struct SectionReader: KeyedSectionReader {
        let decoder: ManifestDecoder
        let job: String
        let keyIDs: [String]

        func fail(_ node: JSONNode, _ path: String, _ message: String) -> any Error {
            decoder.fail(node, path, message)
        }

        func checkKeys(_ node: JSONNode, _ path: String, allowed: [String]) throws {
            _ = try decoder.checkKeys(node, path, allowed: allowed)
        }

        func required(_ node: JSONNode, _ key: String, in parent: String) throws -> JSONNode {
            try decoder.required(node, key, in: parent)
        }

        func string(_ node: JSONNode, _ path: String) throws -> String { try decoder.string(node, path) }

        func choice<T: RawRepresentable & CaseIterable>(_ node: JSONNode, _ path: String, _ type: T.Type) throws -> T
        where T.RawValue == String {
            try decoder.choice(node, path, type)
        }
    }
}
