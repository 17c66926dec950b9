/// What verifying a keyed tap reads about its UID in one job (`LedgerStore.tapLookup`): the done tag, its row's
/// fields and the key versions its journal records.
public struct TapLookup: Sendable, Hashable {
    /// The job's done tag with the UID.
    public var tag: ProvisionedTag
    /// The tag's row fields (empty when the row has none).
    public var fields: [String: String]
    /// The key version each key number holds by the journal (done changes; keys never changed are absent).
    public var keyVersions: [Int: Int]

    public init(tag: ProvisionedTag, fields: [String: String], keyVersions: [Int: Int]) {
        self.tag = tag
        self.fields = fields
        self.keyVersions = keyVersions
    }
}

extension SQLLedger {
    /// The done tag of `uid` in `job` (`tags(uid:)`), its row's fields (`record(job:row:)`) and its key versions
    /// (`keyVersions(job:uid:)`), in one call on the connection instead of three, read together (one snapshot on
    /// SQLite): a tap verification's reads cost one trip to the store's queue. `nil` when `uid` is no done tag of
    /// `job`.
    public func tapLookup(job: String, uid: [UInt8]) async throws(LedgerError) -> TapLookup? {
        try await perform { () throws(LedgerError) -> TapLookup? in
            try connection.readTogether { () throws(LedgerError) -> TapLookup? in try tapLookupNow(job: job, uid: uid) }
        }
    }

    /// `tapLookup`'s reads, inside the caller's transaction.
    func tapLookupNow(job: String, uid: [UInt8]) throws(LedgerError) -> TapLookup? {
        guard let tag = try tagsNow(uid: uid).first(where: { $0.job == job }) else { return nil }
        let fields = try recordNow(job: job, row: tag.row)?.fields ?? [:]
        return TapLookup(tag: tag, fields: fields, keyVersions: Self.keyVersions(try keyChangesNow(job: job, uid: uid)))
    }
}
