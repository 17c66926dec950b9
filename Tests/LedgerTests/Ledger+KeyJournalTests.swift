import Foundation
import Ledger
import Support
import TestSupport
import Testing

/// The key journal (schema 7): intent before ChangeKey, one unresolved change per key, resolution, versions.
@Suite struct LedgerKeyJournalTests {
    static let uid: [UInt8] = [0x04, 0x24, 0x24, 0, 0, 0, 1]

    static func change(_ key: Int, _ old: Int, _ new: Int) -> KeyChange {
        KeyChange(
            uid: uid, keyNumber: key, oldVersion: old, newVersion: new, keyID: "brand.K\(key)",
            oldFingerprint: "factory", newFingerprint: "fp-\(key)-\(new)")
    }

    @Test func anIntentIsDurableAndResolvedOnceAndVersionsFollowDoneChanges() async throws {
        let folder = try Fixtures.temporaryDirectory("keyjournal")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("l.sqlite").path
        do {
            let ledger = try await Ledger.open(path: path)
            try await ledger.intendKeyChange(job: "j", Self.change(1, 0, 1))
            try await ledger.resolveKeyChange(job: "j", uid: Self.uid, keyNumber: 1, as: .done)
            try await ledger.intendKeyChange(job: "j", Self.change(0, 0, 1))
            // A second intent for the same key before the first is resolved: the tag could hold either key.
            await #expect(throws: LedgerError(.invalidState, "")) {
                try await ledger.intendKeyChange(job: "j", Self.change(0, 0, 2))
            }
        }
        // The process is gone (the answer to K0's ChangeKey was lost): a new process finds the intent.
        let reopened = try await Ledger.open(path: path)
        let open = try await reopened.unresolvedKeyChanges(job: "j", uid: Self.uid)
        #expect(open == [Self.change(0, 0, 1)])
        #expect(try await reopened.keyVersions(job: "j", uid: Self.uid) == [1: 1])
        try await reopened.resolveKeyChange(job: "j", uid: Self.uid, keyNumber: 0, as: .abandoned)
        await #expect(throws: LedgerError(.invalidState, "")) {
            try await reopened.resolveKeyChange(job: "j", uid: Self.uid, keyNumber: 0, as: .done)
        }
        try await reopened.intendKeyChange(job: "j", Self.change(0, 0, 1))
        try await reopened.resolveKeyChange(job: "j", uid: Self.uid, keyNumber: 0, as: .done)
        let all = try await reopened.keyChanges(job: "j", uid: Self.uid)
        #expect(all.map(\.state) == [.done, .abandoned, .done])
        #expect(try await reopened.keyVersions(job: "j", uid: Self.uid) == [0: 1, 1: 1])
        #expect(try await reopened.keyChanges(job: "other", uid: Self.uid).isEmpty)
    }

    @Test func theJournalHoldsIdsVersionsAndFingerprintsOnly() async throws {
        let folder = try Fixtures.temporaryDirectory("keyjournal")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("l.sqlite").path
        let ledger = try await Ledger.open(path: path)
        try await ledger.intendKeyChange(job: "j", Self.change(2, 0, 7))
        let columns = try SQLiteShell.query(path, "SELECT name FROM pragma_table_info('key_changes')").map { $0[0] }
        #expect(
            columns == [
                "id", "job", "uid", "key_number", "old_version", "new_version", "key_id", "old_fingerprint",
                "new_fingerprint", "state", "intended_at", "resolved_at",
            ])
        #expect(
            try SQLiteShell.query(path, "SELECT uid, key_id, state FROM key_changes") == [
                ["04242400000001", "brand.K2", "intended"]
            ])
    }
}
