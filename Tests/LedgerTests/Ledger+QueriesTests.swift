import Foundation
import TestSupport
import Testing

@testable import Ledger

@Suite struct LedgerQueriesTests {
    @Test(arguments: StoreKind.allCases) func attemptsAndTagsRoundTripInOrder(_ kind: StoreKind) async throws {
        let store = try await Sample.store(kind, rows: 3)
        let ledger = store.ledger
        for n in [3, 1, 2] {
            let uid = Sample.uid(n)
            let claimed = try #require(try await ledger.claim(job: "j", reader: "r", uid: uid))
            if n == 1 {
                try await ledger.recordAttempt(
                    job: "j",
                    Sample.attempt(
                        uid, row: claimed.row, outcome: .failed, failureClass: "nak",
                        phase: "write", page: 4))
            }
            try await ledger.markDone(
                job: "j", row: claimed.row, uid: uid, tag: Sample.tag(uid, locked: n != 2),
                attempt: Sample.attempt(uid, row: claimed.row))
        }
        try await ledger.recordAttempt(
            job: "j",
            Sample.attempt(
                Sample.uid(9), row: nil, outcome: .failed, failureClass: "wrongChip",
                phase: "identify"))

        let tags = try await ledger.tags(job: "j")
        #expect(tags.map(\.row) == [1, 2, 3])
        #expect(tags.map(\.tag.uid) == [Sample.uid(3), Sample.uid(1), Sample.uid(2)])
        #expect(tags[0].tag == Sample.tag(Sample.uid(3)))
        #expect(tags[2].tag.locked == false && tags[1].tag.locked)
        #expect(try await ledger.tags(uid: Sample.uid(1)).map(\.row) == [2])

        let attempts = try await ledger.attempts(job: "j")
        #expect(attempts.count == 5)
        #expect(attempts[0] == Sample.attempt(Sample.uid(3), row: 1))
        #expect(
            attempts[1]
                == Sample.attempt(
                    Sample.uid(1), row: 2, outcome: .failed, failureClass: "nak",
                    phase: "write", page: 4))
        let failures = try await ledger.failures(job: "j")
        #expect(failures.map(\.failureClass) == ["nak", "wrongChip"])
        #expect(failures.last?.row == nil)
        #expect(try await ledger.record(job: "j", row: 2)?.attempts == 2)

        let counts = try await ledger.counts(job: "j")
        #expect(counts.done == 3 && counts.pending == 0 && counts.total == 3)
    }

    @Test func storedValuesAreReadableFromPlainSQL() async throws {
        let folder = try TemporaryFolder()
        let ledger = try await Sample.ledger(at: folder.path(), rows: 1)
        let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
        _ = try await ledger.claim(job: "j", reader: "r", uid: uid)
        try await ledger.markDone(
            job: "j", row: 1, uid: uid, tag: Sample.tag(uid), attempt: Sample.attempt(uid, row: 1))
        let row = try await ledger.rawQuery(
            "SELECT uid, bytes_sha256, written_at FROM tags WHERE job = ?", ["j"])
        #expect(row == [["04A1B2C3D4E5F6", LedgerFormat.digest(Sample.digest(99)), "2027-01-15T08:00:00.125Z"]])
        #expect(try await ledger.rawQuery("SELECT fields_json FROM records") == [[#"{"serial":"S1"}"#]])
        #expect(try await ledger.rawQuery("SELECT total, done FROM job_progress") == [["1", "1"]])
    }
}

@Test(arguments: StoreKind.allCases) func openClaimsListTheClaimedRowsOldestFirstWithTheirStation(_ kind: StoreKind)
    async throws
{
    let store = try await Sample.store(kind, rows: 3)
    let ledger = store.ledger
    _ = try await ledger.claim(job: "j", reader: "line-a/sim:ntag215", uid: Sample.uid(1))
    _ = try await ledger.claim(job: "j", reader: "sim:ntag215", uid: Sample.uid(2))
    let claims = try await ledger.openClaims(job: "j")
    #expect(claims.map(\.row) == [1, 2])
    #expect(claims.map(\.uid) == [Sample.uid(1), Sample.uid(2)])
    #expect(claims.map(\.station) == ["line-a", nil], "a reader name without a station has none")
    try await ledger.markDone(
        job: "j", row: 1, uid: Sample.uid(1), tag: Sample.tag(Sample.uid(1)),
        attempt: Sample.attempt(Sample.uid(1), row: 1))
    #expect(try await ledger.openClaims(job: "j").map(\.row) == [2])
}
