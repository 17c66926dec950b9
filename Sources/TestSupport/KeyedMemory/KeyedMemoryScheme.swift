import JSONReader
import NFCTags

/// The keyed memory chip's personalisation as a `KeyedScheme`: the manifest's `keyedmem` section (`master`, a key
/// of the `keys` section), the tag keys K0 (application master) and K1 (MAC key) diversified from it with AN10922
/// for UID ‖ key number ‖ `kmem`, the journaled plan (`KeyedMemoryPlan`) and its dynamic message
/// (`KeyedMemoryMessage`).
public struct KeyedMemoryScheme: KeyedScheme {
    /// The section's options: the master key's id.
    public struct Options: KeyedJobOptions {
        public var masterKeyID: String

        /// Options naming the master key `masterKeyID`.
        public init(masterKeyID: String) { self.masterKeyID = masterKeyID }
    }

    /// Creates the scheme.
    public init() {}

    public var section: String { "keyedmem" }
    public var chips: Set<TagChip> { [KeyedMemoryFamily.chip] }
    public var displayName: String { KeyedMemoryFamily.chip.displayName }
    public var dynamicMessage: (any DynamicMessageScheme)? { KeyedMemoryMessage() }

    public var publicKeys: [PublicKeyMaterial] {
        [PublicKeyMaterial(bytes: KeyedMemoryFamily.deliveryKeys[0].bytes, what: "the KMEM-1 delivery key")]
    }

    public var diversificationInput: String { "for KMEM-1 jobs UID(7) ‖ key number(1) ‖ 'kmem'" }

    public func diversify(master: SecretKey, input: [UInt8]) throws -> SecretKey {
        try master.diversified(input: input, id: "diversified")
    }

    /// K0 and K1 of the tag `uid` under `master`.
    ///
    /// - Throws: `AES128Error` when the master key is not 16 bytes.
    public static func keys(master: SecretKey, uid: [UInt8]) throws -> [SecretKey] {
        try (0..<2).map { number in
            try master.diversified(input: uid + [UInt8(number)] + Array("kmem".utf8), id: "\(master.id).K\(number)")
        }
    }

    public func tagKeys(master: SecretKey, options: any KeyedJobOptions) -> TagKeys {
        { uid in try Self.keys(master: master, uid: uid) }
    }

    public func plan(_ request: KeyedPlanRequest) throws -> any KeyedPlan {
        guard let layout = request.layout as? KeyedMemoryLayout else {
            throw KeyedFailure(.wrongChip, phase: .identify, "the row's dynamic message is not laid out for KMEM-1")
        }
        return KeyedMemoryPlan(
            keys: try request.keys(request.uid), layout: layout, permanent: request.permanent,
            journal: request.journal, history: request.history, resumed: request.resumed)
    }

    /// Decodes the `keyedmem` section: `master`, a key the `keys` section defines.
    public func decodeSection(_ node: JSONNode, reader: any KeyedSectionReader) throws -> any KeyedJobOptions {
        try reader.checkKeys(node, section, allowed: ["master"])
        let masterNode = try reader.required(node, "master", in: section)
        let master = try reader.string(masterNode, "\(section).master")
        guard reader.keyIDs.contains(master) else {
            throw reader.fail(masterNode, "\(section).master", "names key '\(master)', which \"keys\" does not define")
        }
        return Options(masterKeyID: master)
    }
}
