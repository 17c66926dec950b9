import Support

/// Where a keyed scheme records its key changes: durable before each key change is sent (the ledger's key journal,
/// a synced commit), and resolved once the tag proves which key it holds (`docs/reference/type4.md` §4.3).
///
/// A family's keyed plan writes through it; Provisioning implements it over the ledger (`LedgerKeyJournal`), so
/// the family needs no ledger.
public protocol KeyJournal: Sendable {
    /// Records `change` as intended; returns only once it is durable.
    func intend(_ change: KeyChange) throws
    /// Resolves the open change of key `keyNumber` of the tag `uid` as `done` or `abandoned`.
    func resolve(uid: [UInt8], keyNumber: Int, as state: KeyChange.State) throws
    /// Microseconds the calls so far waited for durability (0 for a journal in memory).
    var waitedMicroseconds: Double { get }
}

extension KeyJournal {
    public var waitedMicroseconds: Double { 0 }
}
