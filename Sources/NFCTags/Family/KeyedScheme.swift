import JSONReader

/// Keyed personalisation a family offers for some of its chips: the seam the pipeline, the manifest and the
/// CLI use instead of naming a chip.
///
/// A family lists its schemes in `TagFamily.keyedSchemes`; a job whose manifest carries a scheme's `section`
/// is a keyed job, and its tags run the scheme's step plan in place of write, lock and protect.
public protocol KeyedScheme: Sendable {
    /// The manifest section that carries the scheme's options, decoded by the family.
    var section: String { get }
    /// The chips the scheme personalises.
    var chips: Set<TagChip> { get }
    /// The dynamic message the keyed chip renders and how a tap of it is verified (`DynamicMessageScheme`);
    /// `nil` when the scheme has none.
    var dynamicMessage: (any DynamicMessageScheme)? { get }
    /// The chips' name in messages (`NTAG 424 DNA`).
    var displayName: String { get }
    /// Decodes the manifest section (`section`) with the manifest's `reader`, whose errors name file, line and field.
    ///
    /// - Throws: the reader's errors.
    func decodeSection(_ node: JSONNode, reader: any KeyedSectionReader) throws -> any KeyedJobOptions
    /// A tag's keys by key number, derived from the job's `master` under `options`.
    func tagKeys(master: SecretKey, options: any KeyedJobOptions) -> TagKeys
    /// One key of a tag, derived from `master` under `options` without the others (tap verification).
    func tagKey(master: SecretKey, options: any KeyedJobOptions) -> TagKey
    /// One tag's personalisation: the step plan the pipeline runs on a `FamilyTag` whose `keyed` capability is
    /// the scheme's.
    ///
    /// - Throws: when the tag's keys do not derive or the layout is not the scheme's.
    func plan(_ request: KeyedPlanRequest) throws -> any KeyedPlan
    /// Keys anyone knows (the chip's delivery keys), which a job must not use as its own on a real line.
    var publicKeys: [PublicKeyMaterial] { get }
    /// The key `provision keys diversify` prints: the scheme's diversification of `master` for `input`.
    ///
    /// - Throws: when the master key or the input does not fit the scheme's diversification.
    func diversify(master: SecretKey, input: [UInt8]) throws -> SecretKey
    /// What the diversification input is for the scheme's chips, for `keys diversify --help`.
    var diversificationInput: String { get }
}

/// A key anyone knows, with what it is (`TestKeyMaterial` refuses it on a real line).
public struct PublicKeyMaterial: Sendable, Hashable {
    /// The key bytes.
    public var bytes: [UInt8]
    /// What it is, as a refusal names it.
    public var what: String

    /// Creates an entry.
    public init(bytes: [UInt8], what: String) {
        self.bytes = bytes
        self.what = what
    }
}

extension KeyedScheme {
    /// One key picked from all of the tag's (`tagKeys`), for a scheme that cannot derive one alone.
    public func tagKey(master: SecretKey, options: any KeyedJobOptions) -> TagKey {
        let keys = tagKeys(master: master, options: options)
        return { uid, number in try keys(uid)[number] }
    }
}
