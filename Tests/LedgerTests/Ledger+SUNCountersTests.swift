import Foundation
import TestSupport
import Testing

@testable import Ledger

/// Verified SUN counters (schema 8, `sun_counters`): a counter is accepted only above the tag's highest, one row
/// per verified counter, atomically across connections, and a schema-7 ledger gains the table on open.
@Suite struct LedgerSUNCountersTests {
    static let uid: [UInt8] = [0x04, 0x24, 0x24, 0, 0, 0, 1]

    @Test func aCounterIsAcceptedOnlyAboveTheHighestAndEachIsOneRow() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Ledger.open(path: folder.path())
        #expect(try await ledger.highestSUNCounter(job: "j", uid: Self.uid) == nil)
        #expect(try await ledger.acceptSUNCounter(job: "j", uid: Self.uid, counter: 5) == .accepted(previous: nil))
        #expect(try await ledger.acceptSUNCounter(job: "j", uid: Self.uid, counter: 5) == .replayed(highest: 5))
        #expect(try await ledger.acceptSUNCounter(job: "j", uid: Self.uid, counter: 3) == .replayed(highest: 5))
        // The counter is authenticated: any rise is accepted, there is no plausibility window.
        #expect(try await ledger.acceptSUNCounter(job: "j", uid: Self.uid, counter: 900_000) == .accepted(previous: 5))
        #expect(try await ledger.highestSUNCounter(job: "j", uid: Self.uid) == 900_000)
        // Another job and another tag count on their own.
        #expect(try await ledger.acceptSUNCounter(job: "k", uid: Self.uid, counter: 1) == .accepted(previous: nil))
        let other: [UInt8] = [0x04, 0x24, 0x24, 0, 0, 0, 2]
        #expect(try await ledger.acceptSUNCounter(job: "j", uid: other, counter: 2) == .accepted(previous: nil))
        let time = Date(timeIntervalSince1970: 1_800_000_000.125)
        #expect(try await ledger.acceptSUNCounter(job: "j", uid: other, counter: 3, at: time) == .accepted(previous: 2))
        let rows = try SQLiteShell.query(
            folder.path(), "SELECT job, uid, counter, verified_at FROM sun_counters ORDER BY job, uid, counter")
        #expect(
            rows.map { Array($0.prefix(3)) } == [
                ["j", "04242400000001", "5"], ["j", "04242400000001", "900000"], ["j", "04242400000002", "2"],
                ["j", "04242400000002", "3"], ["k", "04242400000001", "1"],
            ])
        #expect(rows[3][3] == "2027-01-15T08:00:00.125Z")
    }

    @Test(arguments: [(0, true), (0xFF_FFFF, true), (-1, false), (0x100_0000, false)])
    func onlyTwentyFourBitCountersAreRecorded(counter: Int, accepted: Bool) async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Ledger.open(path: folder.path())
        if accepted {
            #expect(
                try await ledger.acceptSUNCounter(job: "j", uid: Self.uid, counter: counter) == .accepted(previous: nil)
            )
        } else {
            await #expect(throws: LedgerError(.invalidData, "")) {
                try await ledger.acceptSUNCounter(job: "j", uid: Self.uid, counter: counter)
            }
        }
    }

    /// The same tap verified by many tasks on three connections at once is `valid` exactly once.
    @Test func concurrentVerificationsOfOneCounterAcceptItOnce() async throws {
        let folder = try TemporaryFolder()
        let ledgers = try await [
            Ledger.open(path: folder.path()), Ledger.open(path: folder.path()), Ledger.open(path: folder.path()),
        ]
        for counter in [7, 8] {
            let verdicts = try await withThrowingTaskGroup(of: SUNCounterVerdict.self) { group in
                for index in 0..<24 {
                    let ledger = ledgers[index % ledgers.count]
                    group.addTask { try await ledger.acceptSUNCounter(job: "j", uid: Self.uid, counter: counter) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(verdicts.filter { if case .accepted = $0 { true } else { false } }.count == 1)
            #expect(verdicts.filter { $0 == .replayed(highest: counter) }.count == 23)
        }
        #expect(try SQLiteShell.query(folder.path(), "SELECT counter FROM sun_counters") == [["7"], ["8"]])
    }

    @Test func theHighestCounterIsOneSeekOfThePrimaryKey() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Ledger.open(path: folder.path())
        for counter in 1...50 { _ = try await ledger.acceptSUNCounter(job: "j", uid: Self.uid, counter: counter) }
        let plan = try await ledger.rawQuery("EXPLAIN QUERY PLAN " + Ledger.highestSUNCounterSQL, ["j", "u"])
            .compactMap { $0.last ?? nil }.joined(separator: " | ")
        #expect(plan.contains("SEARCH sun_counters USING COVERING INDEX sqlite_autoindex_sun_counters_1"), "\(plan)")
        #expect(!plan.contains("SCAN"), "\(plan)")
    }

    /// A schema-7 ledger (key journal, no counters table) is brought to the current version on open, its journal kept.
    @Test func aVersionSevenLedgerGainsTheCountersTable() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path()
        do {
            let connection = try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: 1000)
            try connection.execute("PRAGMA journal_mode = WAL")
            for migration in Ledger.migrations.prefix(7) { try connection.execute(migration) }
            try connection.execute(
                """
                PRAGMA user_version = 7;
                INSERT INTO key_changes(job, uid, key_number, old_version, new_version, key_id, old_fingerprint,
                                        new_fingerprint, state, intended_at, resolved_at)
                    VALUES ('j', '04242400000001', 2, 0, 1, 'brand.k2', 'F0', 'F1', 'done',
                            '2026-12-01T08:00:00.000Z', '2026-12-01T08:00:00.100Z');
                """)
        }
        #expect(try Ledger.storedSchemaVersion(path: path) == 7)
        #expect(
            try SQLiteShell.query(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'sun_counters'") == [["0"]])
        let ledger = try await Ledger.open(path: path)
        #expect(try await ledger.settings().schemaVersion == Ledger.schemaVersion)
        let columns = try SQLiteShell.query(path, "SELECT name FROM pragma_table_info('sun_counters')").map { $0[0] }
        #expect(columns == ["job", "uid", "counter", "verified_at"])
        #expect(try await ledger.keyVersions(job: "j", uid: Self.uid) == [2: 1])
        #expect(try await ledger.acceptSUNCounter(job: "j", uid: Self.uid, counter: 1) == .accepted(previous: nil))
    }
}

/// An accepted SUN counter is durable before `acceptSUNCounter` returns, and verifications on one connection at once
/// share a sync (group commit) instead of one each (issue 44 item 3; docs/ledger.md, "Durability").
@Suite struct LedgerSUNCounterGroupCommitTests {
    static func uid(_ n: Int) -> [UInt8] { [0x04, 0x24, 0x25, 0, 0, UInt8(n >> 8), UInt8(n & 0xFF)] }

    @Test(arguments: StoreKind.allCases) func anAcceptedCounterIsSyncedBeforeTheAnswerAndAReplayedOneWaitsForNone(
        _ kind: StoreKind
    ) async throws {
        let ledger = try await TestStore.open(kind).ledger
        let before = ledger.syncCount
        #expect(try await ledger.acceptSUNCounter(job: "j", uid: Self.uid(1), counter: 5) == .accepted(previous: nil))
        // Committed deferred, then covered by a sync before the call returned: nothing waits for one.
        #expect(await ledger.unsyncedCommitCount == 0)
        #expect(ledger.commitDurability().isDurable)
        #expect(ledger.syncCount == before + 1)
        #expect(try await ledger.acceptSUNCounter(job: "j", uid: Self.uid(1), counter: 5) == .replayed(highest: 5))
        #expect(ledger.syncCount == before + 1, "a replayed counter wrote nothing to sync")
    }

    /// Many verifications of distinct tags at once on one connection: each is accepted and durable, with fewer syncs
    /// than verifications (one synced commit each would be one sync each).
    @Test(arguments: StoreKind.allCases) func concurrentAcceptsOnOneConnectionShareSyncs(_ kind: StoreKind) async throws
    {
        let ledger = try await TestStore.open(kind).ledger
        let count = 64
        let before = ledger.syncCount
        let accepted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for n in 1...count {
                group.addTask {
                    let verdict = try await ledger.acceptSUNCounter(job: "j", uid: Self.uid(n), counter: 1)
                    // This tap's commit is durable now, whatever the others' are.
                    return verdict == .accepted(previous: nil)
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(accepted == count)
        let syncs = ledger.syncCount - before
        #expect(syncs >= 1 && syncs < count, "\(syncs) syncs for \(count) accepted counters")
        #expect(await ledger.unsyncedCommitCount == 0)
        print("group commit (\(kind)): \(count) accepted counters, \(syncs) syncs")
    }
}
