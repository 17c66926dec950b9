/// The tap lookups one SQLite connection has read (`Ledger.tapLookupInBatch`), kept while nothing they read can have
/// changed: a tag tapped again skips its three reads and the decoding of its row's fields.
///
/// The entries hold while the database's version (`PRAGMA data_version`: it moves when another connection, in this
/// process or another, commits) and this connection's change count (`sqlite3_total_changes64`: it moves with any
/// of its own writes) are what they were when the entries were read. The one write a batch of taps makes, a tap's
/// counter, changes nothing a lookup reads, so it moves the expected change count along (`countersWritten`). Any
/// other commit empties the cache at the next lookup. Only done tags are kept (an unknown UID is read each time), at
/// most `capacity` of them.
struct TapLookupCache {
    struct Key: Hashable {
        var job: String
        var uid: [UInt8]
    }

    /// Entries kept at most; the cache starts empty again when it is full.
    static let capacity = 16_384

    private var entries: [Key: TapLookup] = [:]
    /// `PRAGMA data_version` when the entries were read.
    private var version: Int64 = -1
    /// The connection's change count the entries are valid for.
    private var changes: Int64 = -1
    /// Lookups answered from the cache (for tests).
    private(set) var hits = 0

    /// The kept lookup of `key`, when the database is still at `version` and the connection at `changes`; a move of
    /// either empties the cache first.
    mutating func lookup(_ key: Key, version: Int64, changes: Int64) -> TapLookup? {
        guard version == self.version, changes == self.changes else {
            entries.removeAll(keepingCapacity: true)
            (self.version, self.changes) = (version, changes)
            return nil
        }
        guard let entry = entries[key] else { return nil }
        hits += 1
        return entry
    }

    /// Keeps `lookup`, read at the version and change count the last `lookup(_:version:changes:)` saw.
    mutating func store(_ lookup: TapLookup, for key: Key) {
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
        entries[key] = lookup
    }

    /// The connection wrote only tap counters, moving its change count from `before` to `after`: the entries still
    /// hold, if they held before.
    mutating func countersWritten(from before: Int64, to after: Int64) {
        if changes == before { changes = after }
    }
}

extension Ledger {
    /// A tap's reads inside a batch (`DeferredSyncing`): from `tapLookups` while they hold, else `tapLookupNow`.
    func tapLookupInBatch(job: String, uid: [UInt8]) throws(LedgerError) -> TapLookup? {
        let key = TapLookupCache.Key(job: job, uid: uid)
        let version = try connection.queryFirst("PRAGMA data_version") { $0.int("data_version") } ?? -1
        if let kept = tapLookups.lookup(key, version: Int64(version), changes: connection.totalChanges) { return kept }
        guard let found = try tapLookupNow(job: job, uid: uid) else { return nil }
        tapLookups.store(found, for: key)
        return found
    }

    /// A tap's counter inside a batch (`DeferredSyncing`): a write no lookup reads, so `tapLookups` still hold.
    func recordTapCounter(job: String, uid: String, counter: Int, at time: String) throws(LedgerError) -> Bool {
        let before = connection.totalChanges
        let recorded = try recordSUNCounter(job: job, uid: uid, counter: counter, at: time)
        tapLookups.countersWritten(from: before, to: connection.totalChanges)
        return recorded
    }

    /// Tap lookups answered from `tapLookups` so far (for tests).
    var tapLookupHits: Int { tapLookups.hits }
}
