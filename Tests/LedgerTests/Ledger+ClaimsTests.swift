import Foundation
import TestSupport
import Testing

@testable import Ledger

@Suite struct LedgerClaimsTests {
    @Test(arguments: StoreKind.allCases) func claimsTakeTheLowestPendingRowThenNil(_ kind: StoreKind) async throws {
        let store = try await TestStore.open(kind)
        let ledger = store.ledger
        try await ledger.registerJob(name: "j", manifestHash: "m", templateHash: "t")
        try await ledger.addRows(job: "j", rows: Sample.rows([5, 1, 3]))
        var rows: [Int] = []
        for n in 1...4 {
            if let claimed = try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(n)) {
                #expect(!claimed.resumed)
                #expect(claimed.uid == Sample.uid(n))
                rows.append(claimed.row)
            }
        }
        #expect(rows == [1, 3, 5])
        await #expect(throws: LedgerError(.unknownJob, "")) {
            try await ledger.claim(job: "other", reader: "r", uid: Sample.uid(9))
        }
    }

    @Test(arguments: StoreKind.allCases) func sameUIDResumesItsClaimAfterATear(_ kind: StoreKind) async throws {
        let store = try await Sample.store(kind, rows: 3)
        let ledger = store.ledger
        let first = try #require(try await ledger.claim(job: "j", reader: "r1", uid: Sample.uid(1)))
        try await ledger.recordAttempt(
            job: "j",
            Sample.attempt(
                Sample.uid(1), row: first.row, outcome: .failed, failureClass: "tagLost",
                phase: "write", page: 6))
        let other = try #require(try await ledger.claim(job: "j", reader: "r1", uid: Sample.uid(2)))
        let again = try #require(try await ledger.claim(job: "j", reader: "r2", uid: Sample.uid(1)))
        #expect(first.row == 1 && other.row == 2)
        #expect(again.row == 1 && again.resumed && again.attempts == 1)
        // The late-bound timestamp handed out with the first claim is the one stored and read back on resume.
        #expect(again.claimedAt == first.claimedAt, "\(again.claimedAt) vs \(first.claimedAt)")
        #expect(again.fields == ["serial": "S1"] && again.messageSHA256 == Sample.digest(1))
        let record = try #require(try await ledger.record(job: "j", row: 1))
        #expect(record.state == .claimed && record.uid == Sample.uid(1) && record.claimedBy == "r2")
    }

    @Test(arguments: StoreKind.allCases) func openRowsLastWhileARowIsPendingOrClaimed(_ kind: StoreKind) async throws {
        let store = try await Sample.store(kind, rows: 1)
        let ledger = store.ledger
        #expect(try await ledger.remainingWork(job: "j").hasPending)
        let claimed = try #require(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1)))
        let whileClaimed = try await ledger.remainingWork(job: "j")
        #expect(!whileClaimed.hasPending && whileClaimed.claims.map(\.row) == [1], "a claimed row is still open")
        let stillOpen = try await ledger.markDone(
            job: "j", row: claimed.row, uid: Sample.uid(1), tag: Sample.tag(Sample.uid(1)),
            attempt: Sample.attempt(Sample.uid(1), row: claimed.row))
        #expect(!stillOpen, "markDone reads the open rows in its own transaction")
        #expect(try await ledger.remainingWork(job: "j") == RemainingWork(hasPending: false, claims: []))
        #expect(try await ledger.remainingWork(job: "unknown") == RemainingWork(hasPending: false, claims: []))
    }

    /// Issue 40: what a station may still claim: a pending row, or the claims and who holds them.
    @Test(arguments: StoreKind.allCases) func remainingWorkTellsPendingRowsFromClaimsAndTheirHolders(
        _ kind: StoreKind
    ) async throws {
        let store = try await Sample.store(kind, rows: 2)
        let ledger = store.ledger
        #expect(try await ledger.remainingWork(job: "j") == RemainingWork(hasPending: true, claims: []))
        let first = try #require(try await ledger.claim(job: "j", reader: "s2/sim:ntag215", uid: Sample.uid(1)))
        #expect(try await ledger.remainingWork(job: "j").hasPending)
        _ = try #require(try await ledger.claim(job: "j", reader: "sim:ntag215", uid: Sample.uid(2)))
        let left = try await ledger.remainingWork(job: "j")
        #expect(!left.hasPending)
        #expect(left.claims.map(\.row) == [first.row, 2] && left.claims.map(\.station) == ["s2", nil])
        #expect(left.claims.first?.uid == Sample.uid(1) && left.claims.first?.claimedBy == "s2/sim:ntag215")
        #expect(try await ledger.remainingWork(job: "unknown") == RemainingWork(hasPending: false, claims: []))
    }

    @Test(arguments: StoreKind.allCases) func doneUIDIsReportedAndNotClaimedAgain(_ kind: StoreKind) async throws {
        let store = try await Sample.store(kind, rows: 3)
        let ledger = store.ledger
        let uid = Sample.uid(1)
        let claimed = try #require(try await ledger.claim(job: "j", reader: "r", uid: uid))
        try await ledger.markDone(
            job: "j", row: claimed.row, uid: uid, tag: Sample.tag(uid),
            attempt: Sample.attempt(uid, row: claimed.row))
        #expect(try await ledger.isProvisioned(uid: uid) == RowReference(job: "j", row: 1))
        #expect(try await ledger.isProvisioned(uid: Sample.uid(2)) == nil)
        let error = try await #require(throws: LedgerError.self) {
            try await ledger.claim(job: "j", reader: "r", uid: uid)
        }
        #expect(error.code == .alreadyProvisioned)
        #expect(error.message.contains("row 1 of job j"))
        let record = try #require(try await ledger.record(job: "j", row: 1))
        #expect(record.state == .done && record.attempts == 1 && record.finishedAt != nil)
    }

    /// The one look-up of a UID's live rows sorts them by job: a claim in another job is no obstacle, a
    /// done row in another job refuses the UID, and an unknown job is still named as such.
    @Test(arguments: StoreKind.allCases) func aUIDsRowsInOtherJobsAreSortedByTheirState(_ kind: StoreKind) async throws
    {
        let store = try await Sample.store(kind, rows: 2)
        let ledger = store.ledger
        try await ledger.registerJob(name: "k", manifestHash: "m", templateHash: "t")
        try await ledger.addRows(job: "k", rows: Sample.rows([1, 2]))
        let held = Sample.uid(1)
        let inJ = try #require(try await ledger.claim(job: "j", reader: "r", uid: held))
        let inK = try #require(try await ledger.claim(job: "k", reader: "r", uid: held))
        #expect(inJ.row == 1 && inK.row == 1 && !inK.resumed, "a claim in job j does not resume in job k")
        let done = Sample.uid(2)
        let claimed = try #require(try await ledger.claim(job: "k", reader: "r", uid: done))
        try await ledger.markDone(
            job: "k", row: claimed.row, uid: done, tag: Sample.tag(done),
            attempt: Sample.attempt(done, row: claimed.row))
        let refused = try await #require(throws: LedgerError.self) {
            try await ledger.claim(job: "j", reader: "r", uid: done)
        }
        #expect(refused.code == .alreadyProvisioned && refused.message.contains("row 2 of job k"), "\(refused)")
        #expect(try await ledger.record(job: "j", row: 2)?.state == .pending, "the refusal claimed nothing")
        await #expect(throws: LedgerError(.unknownJob, "")) {
            try await ledger.claim(job: "nope", reader: "r", uid: done)
        }
        await #expect(throws: LedgerError(.unknownJob, "")) {
            try await ledger.claim(job: "nope", reader: "r", uid: held)
        }
    }

    @Test(arguments: StoreKind.allCases) func markDoneRequiresTheClaimingUID(_ kind: StoreKind) async throws {
        let store = try await Sample.store(kind, rows: 2)
        let ledger = store.ledger
        _ = try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1))
        let intruder = Sample.uid(2)
        await #expect(throws: LedgerError(.invalidState, "")) {
            try await ledger.markDone(
                job: "j", row: 1, uid: intruder, tag: Sample.tag(intruder),
                attempt: Sample.attempt(intruder, row: 1))
        }
        await #expect(throws: LedgerError(.invalidState, "")) {
            try await ledger.markDone(
                job: "j", row: 2, uid: intruder, tag: Sample.tag(intruder),
                attempt: Sample.attempt(intruder, row: 2))
        }
        await #expect(throws: LedgerError(.unknownRow, "")) {
            try await ledger.markDone(
                job: "j", row: 9, uid: intruder, tag: Sample.tag(intruder),
                attempt: Sample.attempt(intruder, row: 9))
        }
        #expect(try await ledger.tags(job: "j").isEmpty)
    }

    @Test func uniqueIndexesRejectASecondDoneRowForOneUID() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Sample.ledger(at: folder.path(), rows: 2)
        let uid = Sample.uid(1)
        _ = try await ledger.claim(job: "j", reader: "r", uid: uid)
        try await ledger.markDone(
            job: "j", row: 1, uid: uid, tag: Sample.tag(uid), attempt: Sample.attempt(uid, row: 1))
        // Bypass the API: the schema itself must refuse a second live row for the same UID in the job,
        // whether claimed or done ...
        for state in ["claimed", "done"] {
            let rowError = try await #require(throws: LedgerError.self) {
                try await ledger.rawExecute(
                    "UPDATE records SET state = '\(state)', uid = '04A1B200000001' WHERE row = 2")
            }
            #expect(rowError.resultCode == .constraintUnique)
        }
        // ... and tags are only ever recorded on their row: the `tags` view takes no writes.
        let tagError = try await #require(throws: LedgerError.self) {
            try await ledger.rawExecute(
                """
                INSERT INTO tags(uid, chip, job, row, bytes_sha256, byte_count, locked, written_at, recorded_at)
                VALUES ('04A1B2000000FF', 'NTAG215', 'j', 2, 'x', 1, 0, 't', 't')
                """)
        }
        #expect(tagError.message.contains("view"), "\(tagError)")
        #expect(try await ledger.counts(job: "j").done == 1)
        #expect(try await ledger.tags(job: "j").map(\.tag.uid) == [uid])
    }

    @Test func markDoneIsAllOrNothing() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Sample.ledger(at: folder.path(), rows: 2)
        let uid = Sample.uid(1)
        _ = try await ledger.claim(job: "j", reader: "r", uid: uid)
        // Fail the last of markDone's three writes (the attempt insert).
        try await ledger.rawExecute(
            "CREATE TEMP TRIGGER fail_attempt BEFORE INSERT ON attempts BEGIN SELECT RAISE(ABORT, 'injected'); END")
        let error = try await #require(throws: LedgerError.self) {
            try await ledger.markDone(
                job: "j", row: 1, uid: uid, tag: Sample.tag(uid), attempt: Sample.attempt(uid, row: 1))
        }
        #expect(error.resultCode == .constraintTrigger)
        #expect(try await ledger.record(job: "j", row: 1)?.state == .claimed)
        #expect(try await ledger.record(job: "j", row: 1)?.attempts == 0)
        #expect(try await ledger.tags(job: "j").isEmpty)
        #expect(try await ledger.attempts(job: "j").isEmpty)
        #expect(try await ledger.isProvisioned(uid: uid) == nil)
        // Another connection sees nothing either, and the failed one is usable again.
        let other = try await Ledger.open(path: folder.path())
        #expect(try await other.rawQuery("SELECT count(*) FROM tags") == [["0"]])
        try await ledger.rawExecute("DROP TRIGGER fail_attempt")
        try await ledger.markDone(
            job: "j", row: 1, uid: uid, tag: Sample.tag(uid), attempt: Sample.attempt(uid, row: 1))
        #expect(try await other.tags(job: "j").map(\.row) == [1])
    }

    @Test(arguments: StoreKind.allCases) func failedAndBurnedRowsAreNotReissued(_ kind: StoreKind) async throws {
        let store = try await Sample.store(kind, rows: 3)
        let ledger = store.ledger
        _ = try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1))
        _ = try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(2))
        try await ledger.markFailed(job: "j", row: 1, burn: false, detail: "verifyMismatch x3")
        try await ledger.markFailed(job: "j", row: 2, burn: true)
        #expect(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1))?.row == 3)
        #expect(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(4)) == nil)
        let counts = try await ledger.counts(job: "j")
        #expect(counts.failed == 1 && counts.burned == 1 && counts.claimed == 1 && counts.total == 3)
        #expect(try await ledger.record(job: "j", row: 2)?.uid == Sample.uid(2))
        await #expect(throws: LedgerError(.invalidState, "")) {
            try await ledger.markFailed(job: "j", row: 1, burn: true)
        }
        #expect(try await ledger.events(job: "j").map(\.kind) == ["failed", "burned"])
    }

    @Test(arguments: StoreKind.allCases) func returnedRowGoesToTheNextTag(_ kind: StoreKind) async throws {
        let store = try await Sample.store(kind, rows: 2)
        let ledger = store.ledger
        _ = try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1))
        try await ledger.returnToPending(job: "j", row: 1, detail: "reuse")
        let record = try #require(try await ledger.record(job: "j", row: 1))
        #expect(record.state == .pending && record.uid == nil && record.claimedBy == nil)
        #expect(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(2))?.row == 1)
        await #expect(throws: LedgerError(.invalidState, "")) { try await ledger.returnToPending(job: "j", row: 2) }
    }

    @Test(arguments: StoreKind.allCases) func operatorReleaseIsRecordedAndDoneRowsCannotBeReleased(_ kind: StoreKind)
        async throws
    {
        let store = try await Sample.store(kind, rows: 2)
        let ledger = store.ledger
        let uid = Sample.uid(1)
        _ = try await ledger.claim(job: "j", reader: "r", uid: uid)
        // Unresolved: another UID never gets row 1.
        #expect(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(2))?.row == 2)
        try await ledger.release(job: "j", row: 1, by: "alice", note: "tag destroyed")
        let event = try #require(try await ledger.events(job: "j").last)
        #expect(event.kind == "release" && event.actor == "alice" && event.row == 1)
        #expect(event.detail == "uid 04A1B200000001; tag destroyed")
        #expect(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(3))?.row == 1)
        try await ledger.markDone(
            job: "j", row: 1, uid: Sample.uid(3), tag: Sample.tag(Sample.uid(3)),
            attempt: Sample.attempt(Sample.uid(3), row: 1))
        await #expect(throws: LedgerError(.invalidState, "")) {
            try await ledger.release(job: "j", row: 1, by: "alice")
        }
        await #expect(throws: LedgerError(.unknownRow, "")) { try await ledger.release(job: "j", row: 7, by: "alice") }
        #expect(try await ledger.events(job: "j").count == 1)
    }
}
