import Foundation

/// A key id presented with another fingerprint than the one its job recorded: ids and fingerprints only, never
/// key bytes, so it can be printed.
public struct KeyBindingConflict: Sendable, Hashable {
    /// The key id (the manifest's).
    public var keyID: String
    /// The fingerprint the job recorded for it.
    public var recorded: String
    /// The fingerprint of the key presented now.
    public var presented: String

    public init(keyID: String, recorded: String, presented: String) {
        self.keyID = keyID
        self.recorded = recorded
        self.presented = presented
    }
}

/// The keys a job is bound to (SQLite schema 9, PostgreSQL 3, table `job_keys`, docs/ledger.md): each key id's
/// fingerprint as the job first ran with it, so half a batch is never made under one key and half under another.
extension SQLLedger {
    /// Records the bindings of `keys` (key id → fingerprint) that `job` has not recorded yet, and returns the ids
    /// whose recorded fingerprint differs; when any differs nothing is recorded.
    ///
    /// One transaction: the missing bindings are inserted (`ON CONFLICT DO NOTHING`, so two stations starting
    /// together record one binding), then every binding of `keys` is read back and compared. A conflict rolls the
    /// transaction back, so a refused start leaves the ledger as it was.
    public func bindKeys(job: String, keys: [String: String]) async throws(LedgerError) -> [KeyBindingConflict] {
        guard !keys.isEmpty else { return [] }
        let now = LedgerFormat.time(Date())
        var conflicts: [KeyBindingConflict] = []
        do {
            try await write { () throws(LedgerError) in
                for (id, fingerprint) in keys.sorted(by: { $0.key < $1.key }) {
                    try connection.run(
                        """
                        INSERT INTO job_keys(job, key_id, fingerprint, recorded_at) VALUES (?, ?, ?, ?)
                        ON CONFLICT (job, key_id) DO NOTHING
                        """, [.text(job), .text(id), .text(fingerprint), .text(now)])
                }
                conflicts = Self.conflicts(keys, recorded: try bindings(job: job))
                if !conflicts.isEmpty {
                    throw LedgerError(.invalidState, "job \(job) is bound to other keys; nothing recorded")
                }
            }
        } catch  where !conflicts.isEmpty {
            return conflicts
        }
        return []
    }

    /// The key ids of `keys` whose fingerprint differs from the one `job` recorded (ids it never recorded are
    /// not conflicts); nothing is written.
    public func keyBindingConflicts(job: String, keys: [String: String]) async throws(LedgerError)
        -> [KeyBindingConflict]
    {
        guard !keys.isEmpty else { return [] }
        return Self.conflicts(keys, recorded: try await keyBindings(job: job))
    }

    /// Every key id `job` is bound to, with its recorded fingerprint.
    public func keyBindings(job: String) async throws(LedgerError) -> [String: String] {
        try await perform { () throws(LedgerError) in try bindings(job: job) }
    }

    /// The job's bindings, inside the caller's transaction.
    private func bindings(job: String) throws(LedgerError) -> [String: String] {
        let rows = try connection.query("SELECT key_id, fingerprint FROM job_keys WHERE job = ?", [.text(job)]) {
            ($0.text("key_id"), $0.text("fingerprint"))
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// The conflicts of `keys` against `recorded`, by key id.
    private static func conflicts(_ keys: [String: String], recorded: [String: String]) -> [KeyBindingConflict] {
        keys.sorted { $0.key < $1.key }.compactMap { id, presented in
            guard let stored = recorded[id], stored != presented else { return nil }
            return KeyBindingConflict(keyID: id, recorded: stored, presented: presented)
        }
    }
}
