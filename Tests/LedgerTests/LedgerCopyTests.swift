import Foundation
import Support
import TestSupport
import Testing

@testable import Ledger

/// `LedgerCopy`: a job moves from a SQLite ledger to a PostgreSQL one with its history, is verified row by row,
/// is refused when the server has it or one of its done UIDs, and continues on the server where it stopped
/// (issue 26, "Moving up").
@Suite struct LedgerCopyTests {
    /// The tables of job data, with the column naming the job.
    static let tables = [
        ("jobs", "name"), ("records", "job"), ("attempts", "job"), ("events", "job"), ("seen_counters", "job"),
        ("key_changes", "job"), ("sun_counters", "job"), ("job_keys", "job"),
    ]

    /// A SQLite ledger whose job `j` has every row state and every kind of history, and a job `k` beside it.
    ///
    /// Rows of `j`: 1 done by UID 1 (then reissued as row 7), 2 failed after a failed attempt at station
    /// `bench-2`, 3 claimed by UID 3, 4 failed then released (pending), 5–7 pending.
    static func source(_ folder: TemporaryFolder) async throws -> Ledger {
        let ledger = try await Sample.ledger(at: folder.path(), rows: 6)
        let uid = Sample.uid
        try await ledger.markStarted(job: "j")
        try await ledger.setRecordsHash(job: "j", hash: String(repeating: "ef", count: 32))
        #expect(try await ledger.claim(job: "j", reader: "sim0", uid: uid(1))?.row == 1)
        try await ledger.markDone(
            job: "j", row: 1, uid: uid(1), tag: Sample.tag(uid(1)), attempt: Sample.attempt(uid(1), row: 1))
        #expect(try await ledger.claim(job: "j", reader: "bench-2/sim0", uid: uid(2))?.row == 2)
        var failed = Sample.attempt(uid(2), row: 2, outcome: .failed, failureClass: "tagLost", phase: "write", page: 6)
        failed.reader = "bench-2/sim0"
        try await ledger.recordAttempt(job: "j", failed)
        try await ledger.markFailed(job: "j", row: 2, burn: false, detail: "gave up")
        #expect(try await ledger.claim(job: "j", reader: "sim0", uid: uid(3))?.row == 3)
        #expect(try await ledger.claim(job: "j", reader: "sim0", uid: uid(4))?.row == 4)
        try await ledger.markFailed(job: "j", row: 4, burn: false, detail: nil)
        try await ledger.release(job: "j", row: 4, by: "al", note: "retry")
        #expect(try await ledger.reissue(job: "j", row: 1, by: "al", reason: "label torn") == 7)
        let change = KeyChange(
            uid: uid(1), keyNumber: 0, oldVersion: 0, newVersion: 1, keyID: "m.K0", oldFingerprint: "factory",
            newFingerprint: "fp-0-1")
        try await ledger.intendKeyChange(job: "j", change)
        try await ledger.resolveKeyChange(job: "j", uid: uid(1), keyNumber: 0, as: .done)
        _ = try await ledger.acceptSUNCounter(job: "j", uid: uid(1), counter: 5, at: Sample.time)
        _ = try await ledger.acceptCounter(job: "j", uid: uid(1), counter: 10, window: 100)
        #expect(try await ledger.bindKeys(job: "j", keys: ["m": "v1:00112233AABBCCDD"]).isEmpty)
        try await ledger.registerJob(name: "k", manifestHash: Sample.manifestHash, templateHash: Sample.templateHash)
        try await ledger.addRows(job: "k", rows: Sample.rows(1...2))
        _ = try await ledger.claim(job: "k", reader: "sim0", uid: uid(9))
        try await ledger.markDone(
            job: "k", row: 1, uid: uid(9), tag: Sample.tag(uid(9)), attempt: Sample.attempt(uid(9), row: 1))
        return ledger
    }

    /// A fresh migrated database and a connection to it.
    static func server() async throws -> (PostgresLedger, String) {
        let conninfo = try PostgresTestServer.shared().createDatabase()
        _ = try await PostgresLedger.migrate(conninfo: conninfo)
        return (try await PostgresLedger.open(conninfo: conninfo, station: "copy-test"), conninfo)
    }

    /// Rows of job `job` in each table of the server (`psql`, independent of the copy's own reads).
    static func serverCounts(_ conninfo: String, job: String = "j") throws -> [Int] {
        let server = try PostgresTestServer.shared()
        return try tables.map { table, column in
            let rows = try server.query(conninfo, "SELECT count(*) FROM \(table) WHERE \(column) = '\(job)'")
            return Int(rows.first?.first ?? "") ?? -1
        }
    }

    @Test func everyTableOfTheJobIsCopiedAndMatchesRowByRow() async throws {
        let folder = try TemporaryFolder()
        let writable = try await Self.source(folder)
        let source = try await Ledger.open(path: folder.path(), readOnly: true)
        let (destination, conninfo) = try await Self.server()
        #expect(try await LedgerCopy.unknownColumns(source: source, destination: destination).isEmpty)
        try await LedgerCopy.check(jobs: ["j"], from: source, to: destination)
        let counts = try await LedgerCopy.copy(job: "j", from: source, to: destination)
        // What the file holds, counted with plain SQL: every table of the job has rows to copy.
        var expected: [Int] = []
        for (table, column) in Self.tables {
            let rows = try await writable.rawQuery("SELECT count(*) FROM \(table) WHERE \(column) = 'j'")
            expected.append(Int((rows.first?.first ?? nil) ?? "") ?? -1)
        }
        #expect(expected.allSatisfy { $0 > 0 }, "the fixture exercises every table: \(expected)")
        #expect(try Self.serverCounts(conninfo) == expected)
        #expect(
            [counts.rows, counts.attempts, counts.events, counts.counters, counts.keyChanges, counts.sunCounters]
                == Array(expected.dropFirst().dropLast()))
        #expect(try await LedgerCopy.verify(job: "j", from: source, to: destination) == counts)
        // The stores' own reads agree on both sides (events and attempts in order; event ids renumbered).
        let pg = destination
        #expect(try await pg.job(named: "j") == source.job(named: "j"))
        #expect(try await pg.records(job: "j") == source.records(job: "j"))
        #expect(try await pg.attempts(job: "j") == source.attempts(job: "j"))
        #expect(try await pg.tags(job: "j") == source.tags(job: "j"))
        #expect(try await pg.reissues(job: "j") == source.reissues(job: "j"))
        #expect(try await pg.counts(job: "j") == source.counts(job: "j"))
        #expect(try await pg.openClaims(job: "j") == source.openClaims(job: "j"))
        let unnumbered = { (events: [LedgerEvent]) in
            events.map { event in
                var event = event
                event.id = 0
                return event
            }
        }
        #expect(unnumbered(try await pg.events(job: "j")) == unnumbered(try await source.events(job: "j")))
        let uid = Sample.uid(1)
        #expect(try await pg.keyChanges(job: "j", uid: uid) == source.keyChanges(job: "j", uid: uid))
        #expect(try await pg.highestSUNCounter(job: "j", uid: uid) == 5)
        #expect(try await pg.lastSeenCounter(job: "j", uid: uid) == 10)
        #expect(try await pg.keyBindings(job: "j") == source.keyBindings(job: "j"))
        // A copied attempt's station: the station part of its reader name, else "copied".
        #expect(
            try PostgresTestServer.shared().query(conninfo, "SELECT station, reader FROM attempts ORDER BY id")
                == [["copied", "sim0"], ["bench-2", "bench-2/sim0"]])
        #expect(try Self.serverCounts(conninfo, job: "k") == Array(repeating: 0, count: Self.tables.count))
    }

    @Test func aSecondCopyOfTheSameJobIsRefusedAndChangesNothing() async throws {
        let folder = try TemporaryFolder()
        _ = try await Self.source(folder)
        let source = try await Ledger.open(path: folder.path(), readOnly: true)
        let (destination, conninfo) = try await Self.server()
        _ = try await LedgerCopy.copy(job: "j", from: source, to: destination)
        let before = try Self.serverCounts(conninfo)
        let checked = try await #require(throws: LedgerError.self) {
            try await LedgerCopy.check(jobs: ["j"], from: source, to: destination)
        }
        #expect(checked.code == .jobExists && checked.message.contains("job j"), "\(checked)")
        let copied = try await #require(throws: LedgerError.self) {
            try await LedgerCopy.copy(job: "j", from: source, to: destination)
        }
        #expect(copied.code == .jobExists, "\(copied)")
        #expect(try Self.serverCounts(conninfo) == before)
        let unknown = try await #require(throws: LedgerError.self) {
            try await LedgerCopy.check(jobs: ["nope"], from: source, to: destination)
        }
        #expect(unknown.code == .unknownJob && unknown.message.contains("nope"))
    }

    @Test func aUIDDoneInAnotherJobOnTheServerIsRefusedAndNothingIsWritten() async throws {
        let folder = try TemporaryFolder()
        _ = try await Self.source(folder)
        let source = try await Ledger.open(path: folder.path(), readOnly: true)
        let (destination, conninfo) = try await Self.server()
        let uid = Sample.uid(1)
        try await destination.registerJob(name: "other", manifestHash: "m", templateHash: "t")
        try await destination.addRows(job: "other", rows: Sample.rows(1...3))
        _ = try await destination.claim(job: "other", reader: "s9/r", uid: Sample.uid(70))
        #expect(try await destination.claim(job: "other", reader: "s9/r", uid: uid)?.row == 2)
        try await destination.markDone(
            job: "other", row: 2, uid: uid, tag: Sample.tag(uid), attempt: Sample.attempt(uid, row: 2))
        let checked = try await #require(throws: LedgerError.self) {
            try await LedgerCopy.check(jobs: ["j"], from: source, to: destination)
        }
        #expect(checked.code == .alreadyProvisioned, "\(checked)")
        #expect(checked.message.contains("04A1B200000001") && checked.message.contains("job other (row 2)"))
        let copied = try await #require(throws: LedgerError.self) {
            try await LedgerCopy.copy(job: "j", from: source, to: destination)
        }
        #expect(copied.code == .alreadyProvisioned, "\(copied)")
        #expect(try Self.serverCounts(conninfo) == Array(repeating: 0, count: Self.tables.count))
    }

    @Test func aClaimOnTheServerContinuesTheJobWhereSQLiteLeftIt() async throws {
        let folder = try TemporaryFolder()
        let writable = try await Self.source(folder)
        let source = try await Ledger.open(path: folder.path(), readOnly: true)
        let (destination, _) = try await Self.server()
        _ = try await LedgerCopy.copy(job: "j", from: source, to: destination)
        let station = try await PostgresLedger.open(conninfo: destination.location, station: "s1")
        // The tag that held row 3 when the station stopped resumes its row, claimed at the same time.
        let resumed = try #require(try await station.claim(job: "j", reader: "s1/sim0", uid: Sample.uid(3)))
        let held = try #require(try await source.record(job: "j", row: 3))
        #expect(resumed.row == 3 && resumed.resumed && resumed.claimedAt == held.claimedAt)
        // A new tag gets the row SQLite would have given it next: the released row 4.
        let next = try await station.claim(job: "j", reader: "s1/sim0", uid: Sample.uid(50))
        let sqliteNext = try await writable.claim(job: "j", reader: "sim0", uid: Sample.uid(50))
        #expect(next?.row == 4 && sqliteNext?.row == 4)
        // The done UID stays done: the exactly-once rule holds across the move.
        let again = try await #require(throws: LedgerError.self) {
            try await station.claim(job: "j", reader: "s1/sim0", uid: Sample.uid(1))
        }
        #expect(again.code == .alreadyProvisioned && again.message.contains("row 1"), "\(again)")
        try await station.markDone(
            job: "j", row: 3, uid: Sample.uid(3), tag: Sample.tag(Sample.uid(3)),
            attempt: Sample.attempt(Sample.uid(3), row: 3))
        #expect(try await station.counts(job: "j").done == 2)
    }

    @Test func verifyNamesTheTableJobRowAndColumnThatDiffer() async throws {
        let folder = try TemporaryFolder()
        _ = try await Self.source(folder)
        let source = try await Ledger.open(path: folder.path(), readOnly: true)
        let (destination, conninfo) = try await Self.server()
        _ = try await LedgerCopy.copy(job: "j", from: source, to: destination)
        let server = try PostgresTestServer.shared()
        _ = try server.query(conninfo, "UPDATE attempts SET failure_detail = 'edited' WHERE failure_class = 'tagLost'")
        let edited = try await #require(throws: LedgerError.self) {
            try await LedgerCopy.verify(job: "j", from: source, to: destination)
        }
        #expect(edited.code == .copyMismatch, "\(edited)")
        #expect(
            edited.message.contains("table attempts, job j, row 2 in recorded order, uid 04A1B200000002")
                && edited.message.contains("column failure_detail is 'detail of tagLost'")
                && edited.message.contains("'edited' on the server"), "\(edited.message)")
        _ = try server.query(
            conninfo, "UPDATE attempts SET failure_detail = 'detail of tagLost' WHERE failure_class = 'tagLost'")
        _ = try await LedgerCopy.verify(job: "j", from: source, to: destination)
        _ = try server.query(conninfo, "UPDATE records SET claimed_by = 'x' WHERE row = 5")
        let record = try await #require(throws: LedgerError.self) {
            try await LedgerCopy.verify(job: "j", from: source, to: destination)
        }
        #expect(record.message.contains("table records, job j, row 5: column claimed_by is NULL"), "\(record.message)")
        _ = try server.query(conninfo, "UPDATE records SET claimed_by = NULL WHERE row = 5")
        _ = try server.query(conninfo, "DELETE FROM seen_counters")
        let missing = try await #require(throws: LedgerError.self) {
            try await LedgerCopy.verify(job: "j", from: source, to: destination)
        }
        #expect(
            missing.message.contains("table seen_counters, job j, uid 04A1B200000001 is in the SQLite file but not"),
            "\(missing.message)")
    }

    @Test func aCopyThatDoesNotReadBackAlikeIsRolledBack() async throws {
        let folder = try TemporaryFolder()
        _ = try await Self.source(folder)
        let source = try await Ledger.open(path: folder.path(), readOnly: true)
        let (destination, conninfo) = try await Self.server()
        // A server that changes what it is given (here a trigger): the copy's own read-back catches it.
        _ = try PostgresTestServer.shared().query(
            conninfo,
            """
            CREATE FUNCTION tamper() RETURNS trigger LANGUAGE plpgsql
                AS $$ BEGIN NEW.actor := 'tampered'; RETURN NEW; END $$;
            CREATE TRIGGER tamper BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION tamper();
            """)
        let error = try await #require(throws: LedgerError.self) {
            try await LedgerCopy.copy(job: "j", from: source, to: destination)
        }
        #expect(error.code == .copyMismatch, "\(error)")
        #expect(error.message.contains("table events, job j") && error.message.contains("'tampered' on the server"))
        #expect(try Self.serverCounts(conninfo) == Array(repeating: 0, count: Self.tables.count))
    }

    @Test func aCopiedAttemptsStationIsTheStationPartOfItsReaderName() {
        #expect(LedgerCopy.station(ofReader: "s1/sim:ntag215") == "s1")
        #expect(LedgerCopy.station(ofReader: "bench-2.east/pcsc:ACS ACR122U 00 00") == "bench-2.east")
        #expect(LedgerCopy.station(ofReader: "sim:ntag215") == "copied")
        #expect(LedgerCopy.station(ofReader: "libnfc:pn532_uart:/dev/ttyUSB0") == "copied")
        #expect(LedgerCopy.station(ofReader: "/x") == "copied")
        #expect(LedgerCopy.station(ofReader: String(repeating: "a", count: 65) + "/r") == "copied")
    }
}
