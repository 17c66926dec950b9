import Foundation
import JSONReader
import Support
import TestSupport
import Testing

@testable import Ledger

/// The outbox (docs/events.md) on both stores: each outcome writes exactly one event with its payload, in the
/// outcome's own transaction; readers page by sequence; publishing marks each event once.
@Suite struct LedgerOutboxTests {
    static let reader = "st1/sim0"
    static let kinds = StoreKind.allCases

    /// The payload of `event` as an object.
    static func payload(_ event: OutboxEvent) throws -> [String: JSONValue] {
        guard case .object(let object) = try JSONValue.parse(Array(event.payload.utf8)) else {
            throw HarnessError("payload is not an object: \(event.payload)")
        }
        return object
    }

    static func attempt(_ uid: [UInt8], row: Int?, failureClass: String? = nil) -> AttemptRecord {
        var attempt = Sample.attempt(
            uid, row: row, outcome: failureClass == nil ? .done : .failed,
            failureClass: failureClass)
        attempt.reader = reader
        return attempt
    }

    /// The `count` events of job `j` once they are readable: a server's reader takes events once every older
    /// transaction on it has ended (other tests' databases share the server), so wait for them as `--follow` does.
    static func events(_ ledger: any LedgerStore, count: Int) async throws -> [OutboxEvent] {
        var events = try await ledger.outboxEvents(job: "j")
        for _ in 0..<400 where events.count < count {
            try await Task.sleep(for: .milliseconds(50))
            events = try await ledger.outboxEvents(job: "j")
        }
        return events
    }

    /// A store with job `j` (rows 1…6, `serial` public) on station `st1`.
    static func store(_ kind: StoreKind) async throws -> TestStore {
        let store = try await Sample.store(kind, rows: 6)
        try await store.ledger.setPublicFields(job: "j", fields: ["serial"])
        return store
    }

    /// Runs one of each outcome (and two non-outcomes) on `ledger`.
    static func everyOutcome(_ ledger: any LedgerStore) async throws {
        var tag = Sample.tag(Sample.uid(1))
        (tag.keyID, tag.keyFingerprint) = ("brand", "v1:0011223344556677")
        _ = try await ledger.claim(job: "j", reader: reader, uid: Sample.uid(1))
        try await ledger.markDone(
            job: "j", row: 1, uid: Sample.uid(1), tag: tag, attempt: attempt(Sample.uid(1), row: 1))
        _ = try await ledger.claim(job: "j", reader: reader, uid: Sample.uid(2))
        try await ledger.recordAttempt(job: "j", attempt(Sample.uid(2), row: 2, failureClass: "signatureInvalid"))
        try await ledger.returnToPending(job: "j", row: 2, detail: "signatureInvalid: nothing written")
        _ = try await ledger.claim(job: "j", reader: reader, uid: Sample.uid(3))
        try await ledger.recordAttempt(job: "j", attempt(Sample.uid(3), row: 2, failureClass: "verifyMismatch"))
        try await ledger.markFailed(job: "j", row: 2, burn: true, detail: "verifyMismatch in verify: page 5")
        _ = try await ledger.claim(job: "j", reader: reader, uid: Sample.uid(4))
        try await ledger.markFailed(job: "j", row: 3, burn: false, detail: "given up")
        try await ledger.release(job: "j", row: 3, by: "ana", note: "tag replaced")
        _ = try await ledger.reissue(job: "j", row: 1, by: "ana", reason: "tag destroyed")
        let change = KeyChange(
            uid: Sample.uid(5), keyNumber: 0, oldVersion: 0, newVersion: 1, keyID: "brand.K0",
            oldFingerprint: "v1:factory", newFingerprint: "v1:new")
        try await ledger.intendKeyChange(job: "j", change)
        try await ledger.resolveKeyChange(job: "j", uid: Sample.uid(5), keyNumber: 0, as: .abandoned)
    }

    @Test(arguments: Self.kinds) func eachOutcomeWritesExactlyOneEventWithItsPayload(_ kind: StoreKind)
        async throws
    {
        let store = try await Self.store(kind)
        let ledger = store.ledger
        try await Self.everyOutcome(ledger)
        let events = try await Self.events(ledger, count: 7)
        #expect(
            events.map(\.outcome) == [.done, .quarantined, .burned, .failed, .released, .reissued, .keyChangeAbandoned])
        guard events.count == 7 else { return }
        #expect(events.map(\.row) == [1, 2, 2, 3, 3, 7, nil])
        #expect(Set(events.map(\.id)).count == events.count)
        // Ids are UUIDs version 7, lower case, on both stores.
        #expect(events.allSatisfy { $0.id.count == 36 && Array($0.id)[14] == "7" && $0.id == $0.id.lowercased() })
        #expect(events.map(\.sequence) == events.map(\.sequence).sorted())
        let done = try Self.payload(events[0])
        #expect(done["v"] == .integer(1))
        #expect(done["job"] == .string("j") && done["row"] == .integer(1))
        #expect(done["public"] == .object(["serial": .string("S1")]))
        #expect(done["uid"] == .string(LedgerFormat.uid(Sample.uid(1))))
        #expect(done["chip"] == .string("NTAG215") && done["reader"] == .string(Self.reader))
        // The column names the station that wrote the event: the reader's on a file, the calling station's on a server.
        #expect(done["station"] == .string("st1") && events[0].station == (kind == .sqlite ? "st1" : "test-station"))
        #expect(done["keyId"] == .string("brand") && done["keyFingerprint"] == .string("v1:0011223344556677"))
        guard case .object(let timings)? = done["timings"] else { throw HarnessError("no timings: \(done)") }
        #expect(timings["writeUs"] == .integer(30_000) && timings["lockUs"] == .null)
        #expect(timings["exchanges"] == .integer(17))
        #expect(done["failureClass"] == .null)
        let quarantined = try Self.payload(events[1])
        #expect(quarantined["failureClass"] == .string("signatureInvalid"))
        #expect(quarantined["uid"] == .string(LedgerFormat.uid(Sample.uid(2))))
        let burned = try Self.payload(events[2])
        #expect(burned["failureClass"] == .string("verifyMismatch"))
        #expect(burned["detail"] == .string("verifyMismatch in verify: page 5"))
        #expect(burned["uid"] == .string(LedgerFormat.uid(Sample.uid(3))))
        let released = try Self.payload(events[4])
        #expect(released["actor"] == .string("ana") && released["detail"] == .string("tag replaced"))
        #expect(released["uid"] == .string(LedgerFormat.uid(Sample.uid(4))))
        let reissued = try Self.payload(events[5])
        #expect(reissued["reissueOf"] == .integer(1) && reissued["public"] == .object(["serial": .string("S1")]))
        let abandoned = try Self.payload(events[6])
        #expect(abandoned["keyId"] == .string("brand.K0") && abandoned["keyFingerprint"] == .string("v1:factory"))
        // Never a key's bytes: the payloads name keys by id and fingerprint only.
        #expect(try await ledger.outboxBacklog(job: "j") == 7)
    }

    @Test(arguments: Self.kinds) func anOutcomeWhoseTransactionFailsWritesNoEvent(_ kind: StoreKind)
        async throws
    {
        let store = try await Self.store(kind)
        let ledger = store.ledger
        _ = try await ledger.claim(job: "j", reader: Self.reader, uid: Sample.uid(1))
        // A refused outcome writes nothing.
        await #expect(throws: LedgerError(.invalidState, "")) {
            try await ledger.markDone(
                job: "j", row: 1, uid: Sample.uid(9), tag: Sample.tag(Sample.uid(9)),
                attempt: Self.attempt(Sample.uid(9), row: 1))
        }
        await #expect(throws: LedgerError(.invalidState, "")) {
            try await ledger.release(job: "j", row: 2, by: "ana", note: nil)
        }
        // An outcome whose event cannot be written is not recorded either: one transaction.
        try await Self.refuseOutboxInserts(store)
        await #expect(throws: LedgerError.self) {
            try await ledger.markDone(
                job: "j", row: 1, uid: Sample.uid(1), tag: Sample.tag(Sample.uid(1)),
                attempt: Self.attempt(Sample.uid(1), row: 1))
        }
        #expect(try await ledger.record(job: "j", row: 1)?.state == .claimed)
        #expect(try await ledger.attempts(job: "j").isEmpty)
        #expect(try await ledger.outboxEvents(job: nil).isEmpty)
    }

    /// On a ledger server, the supervisor's outcomes (release, reissue) write their events, with the public fields a
    /// station recorded through `provision_set_public_fields`.
    @Test func aServerRecordsTheSupervisorsOutcomesWithTheRowsPublicFields() async throws {
        let store = try await Self.store(.postgresql)
        let ledger = store.ledger
        _ = try await ledger.claim(job: "j", reader: Self.reader, uid: Sample.uid(1))
        try await ledger.markDone(
            job: "j", row: 1, uid: Sample.uid(1), tag: Sample.tag(Sample.uid(1)),
            attempt: Self.attempt(Sample.uid(1), row: 1))
        _ = try await ledger.claim(job: "j", reader: Self.reader, uid: Sample.uid(2))
        try await ledger.release(job: "j", row: 2, by: "ana", note: nil)
        _ = try await ledger.reissue(job: "j", row: 1, by: "ana", reason: "crushed")
        let events = try await Self.events(ledger, count: 3)
        #expect(events.map(\.outcome) == [.done, .released, .reissued])
        guard events.count == 3 else { return }
        #expect(try Self.payload(events[2])["public"] == .object(["serial": .string("S1")]))
        #expect(try await ledger.outboxBacklog(job: "j") == 3)
        try await ledger.setPublicFields(job: "j", fields: ["serial"])
    }

    /// On a ledger server, a lease taken over after it ran out writes one `leaseLost` event in the takeover, naming
    /// both instances; a lease its process ended, a retry by the same instance and a refused renewal write none.
    /// (A ledger file has one writer and no leases.)
    @Test func aLeaseTakenOverAfterItRanOutWritesOneLeaseLostEvent() async throws {
        let store = try await Self.store(.postgresql)
        let ledger = try #require(store.ledger as? PostgresLedger)
        let station = "test-station"
        let ended = try await ledger.acquireLease(station: station, seconds: 30, instance: "host:1:a")
        try await ledger.releaseLease(ended)
        let frozen = try await ledger.acquireLease(station: station, seconds: 30, instance: "host:2:b")
        _ = try await ledger.acquireLease(station: station, seconds: 30, instance: "host:2:b")
        // The process froze: its lease runs out on the server (by hand, not by a sleep).
        _ = try await store.rawQuery("UPDATE stations SET lease_expires = now() - interval '1 second'")
        _ = try await ledger.acquireLease(station: station, seconds: 30, instance: "host:3:c")
        #expect(try await ledger.renewLease(frozen) == false)
        let events = try await Self.events(ledger, count: 1)
        #expect(events.map(\.outcome) == [.leaseLost])
        guard let event = events.first else { return }
        #expect(event.job == nil && event.row == nil && event.station == station)
        let payload = try Self.payload(event)
        #expect(payload["v"] == .integer(1) && payload["outcome"] == .string("leaseLost"))
        #expect(payload["station"] == .string(station))
        guard case .string(let detail)? = payload["detail"] else { throw HarnessError("no detail: \(payload)") }
        #expect(detail.hasPrefix("instance host:2:b lost the lease of station test-station: it ran out at "))
        #expect(detail.hasSuffix("; instance host:3:c took the station"), "\(detail)")
        // Payload v1's keys, `null` for what a lease does not have.
        for key in ["job", "row", "public", "uid", "chip", "family", "reader", "failureClass", "timings", "keyId"] {
            #expect(payload[key] == .null, "\(key)")
        }
        #expect(payload.count == 19 && payload["at"] != .null)
        #expect(try await ledger.outboxBacklog(job: "j") == 1)
    }

    /// A ledger file and a ledger server hold the same events for the same outcomes: the server's station functions
    /// build each payload as `OutboxFacts.payload()` does (compared with ids, sequences and times aside).
    @Test func bothStoresHoldTheSameEventsForTheSameJob() async throws {
        var payloads: [StoreKind: [[String: JSONValue]]] = [:]
        for kind in StoreKind.allCases {
            let store = try await Self.store(kind)
            try await Self.everyOutcome(store.ledger)
            payloads[kind] = try await Self.events(store.ledger, count: 7).map { event in
                var payload = try Self.payload(event)
                payload["at"] = nil
                return payload
            }
        }
        let file = try #require(payloads[.sqlite])
        let server = try #require(payloads[.postgresql])
        #expect(file.count == 7 && server.count == file.count)
        for (fileEvent, serverEvent) in zip(file, server) {
            #expect(fileEvent == serverEvent)
        }
    }

    /// Makes every insert into `outbox` fail (a trigger), as a full disk or a broken server would.
    static func refuseOutboxInserts(_ store: TestStore) async throws {
        switch store.kind {
        case .sqlite:
            _ = try await store.rawQuery(
                "CREATE TRIGGER refuse BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'no outbox'); END")
        case .postgresql:
            _ = try await store.rawQuery(
                """
                CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'no outbox'; END $$
                """)
            _ = try await store.rawQuery(
                "CREATE TRIGGER refuse BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION refuse()")
        }
    }

    @Test(arguments: Self.kinds) func readersPageBySequenceAndPublishingMarksEachEventOnce(
        _ kind: StoreKind
    ) async throws {
        let store = try await Self.store(kind)
        let ledger = store.ledger
        try await Self.everyOutcome(ledger)
        let all = try await Self.events(ledger, count: 7)
        guard all.count == 7 else { throw HarnessError("\(all.count) events, not 7") }
        let after = try #require(try await ledger.outboxSequence(of: all[2].id))
        #expect(try await ledger.outboxEvents(job: "j", after: after).map(\.id) == all.dropFirst(3).map(\.id))
        #expect(try await ledger.outboxEvents(job: "j", after: 0, limit: 2).map(\.id) == all.prefix(2).map(\.id))
        #expect(try await ledger.outboxEvents(job: "other").isEmpty)
        #expect(try await ledger.outboxSequence(of: "no-such-id") == nil)
        let at = Date(timeIntervalSince1970: 1_900_000_000)
        #expect(try await ledger.markPublished(ids: [all[0].id, all[1].id], at: at) == 2)
        // Again, and with one new: only the new one is marked; the first time stays.
        #expect(try await ledger.markPublished(ids: [all[0].id, all[3].id], at: at.addingTimeInterval(5)) == 1)
        #expect(try await ledger.outboxBacklog(job: "j") == all.count - 3)
        #expect(try await ledger.outboxBacklog(job: nil) == all.count - 3)
        let unpublished = try await ledger.outboxEvents(job: "j", after: 0, limit: 100, unpublishedOnly: true)
        #expect(unpublished.map(\.id) == [all[2].id] + all.dropFirst(4).map(\.id))
        let first = try await ledger.outboxEvents(job: "j").first
        #expect(first?.publishedAt == at)
        // One station's scope: its own events and those no station wrote (`run --publish`).
        let stations = Set(all.map(\.station))
        #expect(stations.contains("st1"), "\(stations)")
        for station in ["st1", "elsewhere"] {
            let scoped = try await ledger.outboxEvents(
                job: "j", station: station, after: 0, limit: 100, unpublishedOnly: true)
            let expected = unpublished.filter { $0.station == nil || $0.station == station }
            #expect(scoped.map(\.id) == expected.map(\.id), "\(station)")
            #expect(try await ledger.outboxBacklog(job: "j", station: station) == expected.count, "\(station)")
        }
    }

    /// A mark is committed without a sync (`.deferred`, docs/events.md, "Publishing"): visible at once, counted as
    /// not yet durable until a sync; a power loss may undo it, which only sends its events again.
    @Test(arguments: Self.kinds) func markingEventsPublishedDoesNotWaitForASync(_ kind: StoreKind) async throws {
        let store = try await Self.store(kind)
        let ledger = store.ledger
        try await Self.everyOutcome(ledger)
        let all = try await Self.events(ledger, count: 7)
        try await ledger.sync()
        #expect(await ledger.unsyncedCommitCount == 0)
        #expect(try await ledger.markPublished(ids: all.map(\.id), at: Date()) == 7)
        #expect(await ledger.unsyncedCommitCount == 1)
        #expect(try await ledger.outboxBacklog(job: "j") == 0)
        try await ledger.sync()
        #expect(await ledger.unsyncedCommitCount == 0)
    }
}
