import Foundation
import Support

/// The key journal: the intent of every ChangeKey is on disk before the command leaves, so a change whose answer
/// was lost (tag pulled, crash, power loss) names the two keys the tag can hold (`docs/reference/type4.md` §4.3).
extension SQLLedger {
    /// Records `change` as intended, in a synced commit, before its ChangeKey is sent.
    ///
    /// - Throws: `LedgerError` `.invalidState` when an unresolved change of the same key is already journaled
    ///   (it must be resolved first: the tag could hold either of its keys).
    public func intendKeyChange(job: String, _ change: KeyChange) async throws(LedgerError) {
        let uid = LedgerFormat.uid(change.uid)
        let now = LedgerFormat.time(Date())
        try await perform { () throws(LedgerError) in
            try connection.transaction(.immediate) { () throws(LedgerError) in
                let open = try connection.queryFirst(
                    "SELECT new_version FROM key_changes WHERE job = ? AND uid = ? AND key_number = ? "
                        + "AND state = 'intended'",
                    [.text(job), .text(uid), .int(change.keyNumber)]
                ) { $0.int("new_version") }
                if let open {
                    throw LedgerError(
                        .invalidState,
                        "key \(change.keyNumber) of tag \(uid) has an unresolved change to version \(open)")
                }
                _ = try connection.run(
                    """
                    INSERT INTO key_changes(job, uid, key_number, old_version, new_version, key_id, old_fingerprint,
                                            new_fingerprint, state, intended_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'intended', ?)
                    """,
                    [
                        .text(job), .text(uid), .int(change.keyNumber), .int(change.oldVersion),
                        .int(change.newVersion), .text(change.keyID), .text(change.oldFingerprint),
                        .text(change.newFingerprint), .text(now),
                    ])
            }
        }
    }

    /// Resolves the unresolved change of key `keyNumber` on `uid` as `done` (the tag holds the new key) or
    /// `abandoned` (it still holds the old one).
    ///
    /// - Throws: `LedgerError` `.invalidState` when no change of that key is unresolved.
    public func resolveKeyChange(
        job: String, uid: [UInt8], keyNumber: Int, as state: KeyChange.State
    ) async throws(LedgerError) {
        let uidText = LedgerFormat.uid(uid)
        let now = LedgerFormat.time(Date())
        try await write { () throws(LedgerError) in
            let open = try connection.queryFirst(
                """
                SELECT key_number, old_version, new_version, key_id, old_fingerprint, new_fingerprint FROM key_changes
                WHERE job = ? AND uid = ? AND key_number = ? AND state = 'intended'
                """, [.text(job), .text(uidText), .int(keyNumber)]
            ) { row in
                KeyChange(
                    uid: uid, keyNumber: row.int("key_number"), oldVersion: row.int("old_version"),
                    newVersion: row.int("new_version"), keyID: row.text("key_id"),
                    oldFingerprint: row.text("old_fingerprint"), newFingerprint: row.text("new_fingerprint"),
                    state: state)
            }
            guard let open else {
                throw LedgerError(.invalidState, "key \(keyNumber) of tag \(uidText) has no unresolved change")
            }
            try connection.run(
                """
                UPDATE key_changes SET state = ?, resolved_at = ?
                WHERE job = ? AND uid = ? AND key_number = ? AND state = 'intended'
                """, [.text(state.rawValue), .text(now), .text(job), .text(uidText), .int(keyNumber)])
            if state == .abandoned { try insertAbandonedKeyChange(job: job, open, at: now) }
        }
    }

    /// Every journaled change of `uid`'s keys in `job`, oldest first.
    public func keyChanges(job: String, uid: [UInt8]) async throws(LedgerError) -> [KeyChange] {
        try await perform { () throws(LedgerError) in try keyChangesNow(job: job, uid: uid) }
    }

    /// `keyChanges(job:uid:)` on the connection, inside the caller's `perform`.
    func keyChangesNow(job: String, uid: [UInt8]) throws(LedgerError) -> [KeyChange] {
        try connection.query(
            """
            SELECT key_number, old_version, new_version, key_id, old_fingerprint, new_fingerprint, state
            FROM key_changes WHERE job = ? AND uid = ? ORDER BY id
            """, [.text(job), .text(LedgerFormat.uid(uid))]
        ) { row throws(LedgerError) in
            guard let state = KeyChange.State(rawValue: row.text("state")) else {
                throw LedgerError(.invalidData, "key_changes state '\(row.text("state"))'")
            }
            return KeyChange(
                uid: uid, keyNumber: row.int("key_number"), oldVersion: row.int("old_version"),
                newVersion: row.int("new_version"), keyID: row.text("key_id"),
                oldFingerprint: row.text("old_fingerprint"), newFingerprint: row.text("new_fingerprint"),
                state: state)
        }
    }

    /// The changes of `uid` still unresolved: what its next presentation must settle before anything else.
    public func unresolvedKeyChanges(job: String, uid: [UInt8]) async throws(LedgerError) -> [KeyChange] {
        try await keyChanges(job: job, uid: uid).filter { $0.state == .intended }
    }

    /// The key version each key of `uid` holds by the journal (done changes; keys never changed are absent).
    public func keyVersions(job: String, uid: [UInt8]) async throws(LedgerError) -> [Int: Int] {
        Self.keyVersions(try await keyChanges(job: job, uid: uid))
    }

    /// The key version each key holds after `changes` (done changes; keys never changed are absent).
    static func keyVersions(_ changes: [KeyChange]) -> [Int: Int] {
        var versions: [Int: Int] = [:]
        for change in changes where change.state == .done { versions[change.keyNumber] = change.newVersion }
        return versions
    }
}
