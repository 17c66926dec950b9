import JSONReader

/// What a keyed job's manifest section says, as the family's scheme decoded it (`KeyedScheme.decodeSection`).
public protocol KeyedJobOptions: Sendable {
    /// The id of the master key (in the manifest's `keys`) every tag's keys derive from.
    var masterKeyID: String { get }
}

/// A keyed job: the scheme its manifest section names and the options the scheme decoded from it.
public struct KeyedJob: Sendable {
    /// The family's scheme.
    public var scheme: any KeyedScheme
    /// The section's options.
    public var options: any KeyedJobOptions

    /// Creates a keyed job.
    public init(scheme: any KeyedScheme, options: any KeyedJobOptions) {
        self.scheme = scheme
        self.options = options
    }

    /// The tag keys of this job under `master` (`KeyedScheme.tagKeys`).
    public func tagKeys(master: SecretKey) -> TagKeys { scheme.tagKeys(master: master, options: options) }

    /// One tag key of this job under `master` (`KeyedScheme.tagKey`).
    public func tagKey(master: SecretKey) -> TagKey { scheme.tagKey(master: master, options: options) }
}

/// The manifest reader a scheme decodes its section with: the decoder's helpers, so a scheme's errors name the
/// file, line and field exactly as every other manifest error does.
public protocol KeyedSectionReader {
    /// The job's name (`job`).
    var job: String { get }
    /// The key ids the manifest's `keys` section defines, sorted.
    var keyIDs: [String] { get }
    /// The manifest error at `node` for `path`.
    func fail(_ node: JSONNode, _ path: String, _ message: String) -> any Error
    /// Refuses a key of `node` not in `allowed`.
    func checkKeys(_ node: JSONNode, _ path: String, allowed: [String]) throws
    /// The member `key` of the section `parent`, or a `missing` error naming `parent.key`.
    func required(_ node: JSONNode, _ key: String, in parent: String) throws -> JSONNode
    /// The string at `node`.
    func string(_ node: JSONNode, _ path: String) throws -> String
    /// The value of `T` the string at `node` names.
    func choice<T: RawRepresentable & CaseIterable>(_ node: JSONNode, _ path: String, _: T.Type) throws -> T
    where T.RawValue == String
}
