import Crypto
import JSONReader
import Synchronization

/// Keyed NTAG 424 DNA personalisation as a `KeyedScheme` (docs/authentication.md): the manifest's `ntag424`
/// section, the AN10922 keys K0–K4 of every tag (`NTAG424JobKeys`), the journaled personalisation
/// (`NTAG424Personalisation`) and SUN as its dynamic message (`SUNScheme`).
public struct NTAG424Scheme: KeyedScheme {
    /// Creates the scheme.
    public init() {}

    public var section: String { "ntag424" }
    public var chips: Set<TagChip> { [Type4Family.ntag424] }
    public var displayName: String { Type4Family.ntag424.displayName }
    public var dynamicMessage: (any DynamicMessageScheme)? { SUNScheme() }

    /// The all-zero key every NTAG 424 DNA application key is at delivery.
    public var publicKeys: [PublicKeyMaterial] {
        [PublicKeyMaterial(bytes: [UInt8](repeating: 0, count: 16), what: "the all-zero NTAG 424 DNA factory key")]
    }

    public var diversificationInput: String {
        "for NTAG 424 DNA jobs UID(7) ‖ key number(1) ‖ system identifier"
    }

    public func diversify(master: SecretKey, input: [UInt8]) throws -> SecretKey {
        try master.diversified(input: input, id: "diversified")
    }

    public func tagKeys(master: SecretKey, options: any KeyedJobOptions) -> TagKeys {
        let keys = Self.jobKeys(master: master, options: options)
        return { uid in try keys.keys(uid: uid) }
    }

    public func tagKey(master: SecretKey, options: any KeyedJobOptions) -> TagKey {
        let keys = Self.jobKeys(master: master, options: options)
        let metaReadKey = MetaReadKey()
        return { uid, number in
            // K1 is the same for every tag, and SUN verification asks for it on every tap: derived once.
            guard number == Int(SUNLayout.metaReadKey) else { return try keys.key(number, uid: uid) }
            return try metaReadKey.get { () throws in try keys.metaReadKey() }
        }
    }

    /// The job's keys under `master`, with the system identifier of `options`.
    private static func jobKeys(master: SecretKey, options: any KeyedJobOptions) -> NTAG424JobKeys {
        NTAG424JobKeys(master: master, systemIdentifier: (options as? NTAG424JobOptions)?.systemIdentifier ?? [])
    }

    public func plan(_ request: KeyedPlanRequest) throws -> any KeyedPlan {
        guard let layout = request.layout as? SUNLayout else {
            throw KeyedFailure(.wrongChip, phase: .identify, "the row's dynamic message is not laid out for SUN")
        }
        return try NTAG424Personalisation(
            keys: try request.keys(request.uid), settings: layout.fileSettings, permanent: request.permanent,
            journal: request.journal, history: request.history, resumed: request.resumed)
    }

    /// Decodes the `ntag424` section: `master` (a key the `keys` section defines), `systemIdentifier` (UTF-8,
    /// 1–20 bytes; default the job name when it fits) and `macInput`.
    public func decodeSection(_ node: JSONNode, reader: any KeyedSectionReader) throws -> any KeyedJobOptions {
        try reader.checkKeys(node, section, allowed: NTAG424JobOptions.knownKeys)
        let masterNode = try reader.required(node, "master", in: section)
        let master = try reader.string(masterNode, "ntag424.master")
        guard reader.keyIDs.contains(master) else {
            let known = reader.keyIDs.map { "'\($0)'" }.joined(separator: ", ")
            throw reader.fail(
                masterNode, "ntag424.master",
                "names key '\(master)', which the \"keys\" section does not define"
                    + (known.isEmpty ? " (it defines none)" : " (it defines \(known))"))
        }
        let limit = NTAG424JobOptions.maximumSystemIdentifier
        let identifier: [UInt8]
        if let field = node["systemIdentifier"] {
            identifier = Array(try reader.string(field, "ntag424.systemIdentifier").utf8)
            guard (1...limit).contains(identifier.count) else {
                throw reader.fail(
                    field, "ntag424.systemIdentifier", "is \(identifier.count) bytes of UTF-8; it must be 1 to \(limit)"
                )
            }
        } else {
            identifier = Array(reader.job.utf8)
            guard identifier.count <= limit else {
                throw reader.fail(
                    node, "ntag424.systemIdentifier",
                    "is missing, and the job name '\(reader.job)' (\(identifier.count) bytes) is longer than the "
                        + "\(limit) bytes it may default to: set \"systemIdentifier\" (UTF-8, 1 to \(limit) bytes)")
            }
        }
        let macInput =
            try node["macInput"].map { field in
                try reader.choice(field, "ntag424.macInput", NTAG424JobOptions.MACInput.self)
            } ?? .picc
        return NTAG424JobOptions(master: master, systemIdentifier: identifier, macInput: macInput)
    }
}

/// A job's K1 (`tagKey`), derived on first use and kept.
private final class MetaReadKey: Sendable {
    private let key = Mutex<SecretKey?>(nil)

    /// The kept key, or `derive`'s (then kept).
    func get(_ derive: () throws -> SecretKey) throws -> SecretKey {
        if let kept = key.withLock({ $0 }) { return kept }
        let derived = try derive()
        key.withLock { $0 = derived }
        return derived
    }
}
